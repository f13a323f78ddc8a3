import { Readable } from 'node:stream';
import { z } from 'zod';
import type { DocumentService } from '../../app/services/documents.ts';
import type { StoredFile } from '../../app/services/stored-file.ts';
import { badRequest } from '../../app/errors.ts';
import { textTypeByName } from '../../domain/document/media-type.ts';
import type { BlobStore } from '../../ports/blob-store.ts';
import { listOf } from '../../../schemas/http/common.ts';
import { OcrLanguages } from '../../../schemas/ocr-languages.ts';
import { DocumentVersion, DocumentVersionDiff, TextVersionBody, UploadChunking, UploadedDocument, VersionDiffQuery } from '../../../schemas/http/documents.ts';
import type { BodyPace, JsonReader } from '../body.ts';
import { receiveMultipart, type ReceivedFile } from '../multipart.ts';
import { route } from '../route.ts';
import { parseOr400 } from '../validate.ts';

export type DocumentVersionRouteDeps = {
  documents: DocumentService;
  blobs: BlobStore;
  /** Types received files by their bytes, as an upload does (documents.ts). */
  typed: (files: ReceivedFile[]) => Promise<StoredFile[]>;
  readText: () => JsonReader;
  maxUploadBytes: number;
  bodyPace: BodyPace;
};

const tag = 'documents';
const base = '/v1/knowledge-bases/:kb_id/documents';
const VERSION_FIELDS = ['chunking', 'ocr_languages'];

/** A multipart field holding JSON, parsed by its schema (absent or empty: undefined). */
export const jsonField = <S extends z.ZodType>(schema: S, raw: string | undefined, name: string) => {
  if (raw === undefined || raw === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return parseOr400(schema, Symbol('not JSON'), name);
  }
  return parseOr400(schema, value, name);
};


/** A version number from the path: 400 for anything else (a name, 0, a sign). */
const versionParam = (raw: string) => {
  if (!/^[1-9]\d{0,8}$/.test(raw)) throw badRequest('invalid_version', 'version must be a version number from 1.', 'version');
  return Number(raw);
};

/** A document's versions (issue 44): add one, list them, download one's bytes, compare two, restore one. */
export function documentVersionRoutes(deps: DocumentVersionRouteDeps) {
  const { documents, blobs, typed, readText } = deps;
  return [
    route({
      method: 'post',
      path: `${base}/:document_id/versions`,
      summary: 'Add a version: multipart `file` (+ optional `chunking`, `ocr_languages`), or JSON {text, name?}; the current version answers until the new one is ready',
      tag,
      scope: 'write',
      status: 201,
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                file: { type: 'string', format: 'binary' },
                chunking: { type: 'string', description: 'JSON {max_tokens?, overlap_tokens?}; the document’s chunking when absent' },
                ocr_languages: { type: 'string', description: 'As for an upload' },
              },
            },
          },
          'application/json': { schema: z.toJSONSchema(TextVersionBody, { io: 'input' }) },
        },
      },
      response: UploadedDocument,
      handle: async ({ ctx, principal, params, requestId }) => {
        const current = await documents.get(principal, params.kb_id, params.document_id);
        let file: StoredFile;
        let options: { chunking?: z.infer<typeof UploadChunking>; ocrLanguages?: string[] } = {};
        if (ctx.is('application/json')) {
          const body = parseOr400(TextVersionBody, await readText()(ctx));
          const name = body.name ?? current.name;
          const blob = await blobs.put(Readable.from([Buffer.from(body.text, 'utf8')]), { maxBytes: deps.maxUploadBytes });
          file = { name, sha256: blob.sha256, sizeBytes: blob.sizeBytes, mediaType: textTypeByName(name) };
        } else {
          const { files, fields } = await receiveMultipart(ctx, blobs, { maxFileBytes: deps.maxUploadBytes, maxFiles: 1 }, deps.bodyPace);
          const unknown = Object.keys(fields).find((f) => !VERSION_FIELDS.includes(f));
          if (unknown) parseOr400(z.strictObject({}), { [unknown]: true });
          if (files.length === 0) parseOr400(z.object({ file: z.string() }), {});
          [file] = (await typed(files)) as [StoredFile];
          options = {
            chunking: jsonField(UploadChunking, fields.chunking, 'chunking'),
            ocrLanguages: fields.ocr_languages ? parseOr400(OcrLanguages, fields.ocr_languages.split(',').map((c) => c.trim()), 'ocr_languages') : undefined,
          };
        }
        const added = await documents.addVersion(principal, params.kb_id, params.document_id, file, { chunking: options.chunking ?? {}, ocrLanguages: options.ocrLanguages, requestId });
        // The newest version's bytes again: nothing new, as an upload of the same file.
        return added.created ? { status: 201, body: added.body } : { status: 200, body: { ...added.body, deduplicated: true } };
      },
    }),
    route({
      method: 'get',
      path: `${base}/:document_id/versions`,
      summary: 'The versions of a document, oldest first: number, bytes, pages, chunks, who uploaded it, status',
      tag,
      scope: 'read',
      response: listOf(DocumentVersion),
      handle: async ({ principal, params }) => ({ body: await documents.versions(principal, params.kb_id, params.document_id) }),
    }),
    route({
      method: 'get',
      path: `${base}/:document_id/versions/:version/content`,
      summary: 'The original bytes of a version, with its media type and file name',
      tag,
      scope: 'read',
      mediaType: 'application/octet-stream',
      handle: async ({ principal, params }) => {
        const content = await documents.versionContent(principal, params.kb_id, params.document_id, versionParam(params.version));
        return {
          headers: { 'content-type': content.mediaType, 'content-length': String(content.size), 'content-disposition': contentDisposition(content.name) },
          body: content.stream,
        };
      },
    }),
    route({
      method: 'get',
      path: `${base}/:document_id/versions/:version/diff`,
      summary: 'What changed from version `against` (default: the one before) to this version: chunks added, removed and changed, with their text and pages',
      tag,
      scope: 'read',
      query: VersionDiffQuery,
      response: DocumentVersionDiff,
      handle: async ({ principal, params, query }) => ({
        body: await documents.versionDiff(principal, params.kb_id, params.document_id, versionParam(params.version), query.against),
      }),
    }),
    route({
      method: 'post',
      path: `${base}/:document_id/versions/:version/restore`,
      summary: 'Restore a version: a new version (the newest + 1) with its bytes, uploaded by the caller; 200 and the document unchanged when the newest version has those bytes already',
      tag,
      scope: 'write',
      status: 201,
      response: UploadedDocument,
      handle: async ({ principal, params, requestId }) => {
        const restored = await documents.restoreVersion(principal, params.kb_id, params.document_id, versionParam(params.version), requestId);
        return restored.created ? { status: 201, body: restored.body } : { status: 200, body: restored.body };
      },
    }),
  ];
}

/** An attachment named as the version was: ASCII for old clients, RFC 5987 UTF-8 for the rest. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

