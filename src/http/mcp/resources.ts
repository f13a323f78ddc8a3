import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListResourcesRequestSchema, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { badRequest } from '../../app/errors.ts';
import type { McpCall, McpDeps } from './deps.ts';
import { asResource } from './results.ts';
import { listDocuments } from './document-listing.ts';

const TEXT = 'kbqa://knowledge-bases/{kb}/documents/{doc}';
const METADATA = `${TEXT}/metadata`;
const CHUNKS_PER_READ = 100;

export const documentUri = (kbId: string, documentId: string) => `kbqa://knowledge-bases/${kbId}/documents/${documentId}`;

/**
 * Documents as resources: a document's text (its chunks in order) and its metadata (the document as
 * GET /v1/knowledge-bases/{kb}/documents/{doc} shows it), read as the request's key; resources/list
 * pages through the documents of every knowledge base the key may read.
 */
export function registerDocumentResources(server: McpServer, deps: McpDeps, call: McpCall) {
  const { principal } = call;
  const one = (value: string | string[] | undefined) => {
    const text = Array.isArray(value) ? value[0] : value;
    if (!text) throw badRequest('invalid_resource_uri', 'The resource URI names no knowledge base or document.');
    return decodeURIComponent(text);
  };

  server.registerResource(
    'document',
    new ResourceTemplate(TEXT, { list: undefined }),
    { title: 'Document text', description: 'A document’s text: its chunks in reading order', mimeType: 'text/plain' },
    (uri, vars) =>
      asResource(deps, call, async (): Promise<ReadResourceResult> => {
        const kb = one(vars.kb);
        const doc = one(vars.doc);
        const paragraphs: string[] = [];
        let after: number | undefined;
        for (;;) {
          const page = await deps.documents.chunks(principal, kb, doc, { limit: CHUNKS_PER_READ, after });
          paragraphs.push(...page.data.map((c) => c.paragraph));
          if (!page.has_more || page.data.length === 0) break;
          after = page.data.at(-1)!.index;
        }
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: paragraphs.join('\n\n') }] };
      }),
  );

  server.registerResource(
    'document-metadata',
    new ResourceTemplate(METADATA, { list: undefined }),
    { title: 'Document metadata', description: 'A document’s name, status, media type, page and chunk counts, and its metadata', mimeType: 'application/json' },
    (uri, vars) =>
      asResource(deps, call, async (): Promise<ReadResourceResult> => {
        const doc = await deps.documents.get(principal, one(vars.kb), one(vars.doc));
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(doc) }] };
      }),
  );

  // McpServer's own resources/list ignores the cursor; this one pages, as the REST lists do.
  server.server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    asResource(deps, call, async () => {
      const { documents, nextCursor } = await listDocuments(deps, principal, request.params?.cursor);
      const resources: Resource[] = documents.map((d) => ({
        uri: documentUri(d.knowledge_base_id, d.id),
        name: d.name,
        title: `${d.name} (${d.knowledge_base_id})`,
        mimeType: 'text/plain',
        description: `Document ${d.id} of knowledge base ${d.knowledge_base_id}, ${d.status}`,
      }));
      return { resources, ...(nextCursor && { nextCursor }) };
    }),
  );
}
