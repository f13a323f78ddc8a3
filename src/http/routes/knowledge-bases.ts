import { ifMatch } from '../if-match.ts';
import type { KnowledgeBaseService, KnowledgeBaseView } from '../../app/services/knowledge-bases.ts';
import { Deleted, ListQuery, listOf } from '../../../schemas/http/common.ts';
import { CreateKnowledgeBaseBody, KnowledgeBase, Reindex, UpdateKnowledgeBaseBody } from '../../../schemas/http/knowledge-bases.ts';
import { type Reply, route } from '../route.ts';

const tag = 'knowledge-bases';

/** The stream revision travels as a strong ETag; If-Match sends it back for optimistic concurrency. */
const withEtag = ({ body, revision }: KnowledgeBaseView, status = 200): Reply => ({
  status,
  body,
  headers: { etag: `"${revision}"` },
});

export function knowledgeBaseRoutes(kbs: KnowledgeBaseService) {
  return [
    route({
      method: 'post',
      path: '/v1/knowledge-bases',
      summary: 'Create a knowledge base',
      tag,
      scope: 'write',
      body: CreateKnowledgeBaseBody,
      response: KnowledgeBase,
      status: 201,
      handle: async ({ principal, body, requestId }) => withEtag(await kbs.create(principal, body, requestId), 201),
    }),
    route({
      method: 'get',
      path: '/v1/knowledge-bases',
      summary: 'List knowledge bases, newest first unless order=asc',
      tag,
      scope: 'read',
      query: ListQuery,
      response: listOf(KnowledgeBase),
      handle: async ({ principal, query }) => ({ body: await kbs.list(principal, query) }),
    }),
    route({
      method: 'get',
      path: '/v1/knowledge-bases/:kb_id',
      summary: 'Get a knowledge base',
      tag,
      scope: 'read',
      response: KnowledgeBase,
      handle: async ({ principal, params }) => withEtag(await kbs.get(principal, params.kb_id)),
    }),
    route({
      method: 'patch',
      path: '/v1/knowledge-bases/:kb_id',
      summary: 'Change the name, description or settings (deep-merged) of a knowledge base',
      tag,
      scope: 'write',
      body: UpdateKnowledgeBaseBody,
      response: KnowledgeBase,
      handle: async ({ ctx, principal, params, body, requestId }) =>
        withEtag(await kbs.update(principal, params.kb_id, body, ifMatch(ctx), requestId)),
    }),
    route({
      method: 'post',
      path: '/v1/knowledge-bases/:kb_id/reindex',
      summary:
        'Re-index: a worker re-embeds every ready document with the current settings.embedding_model, as `kbqa reindex` does (202, queued). ' +
        'Progress: `reindex` of GET /v1/knowledge-bases/{kb_id}. Chunks are not cut again. 409 reindex_in_progress while one is queued or running',
      tag,
      scope: 'write',
      response: Reindex,
      status: 202,
      handle: async ({ principal, params, requestId }) => ({ status: 202, body: await kbs.reindex(principal, params.kb_id, requestId) }),
    }),
    route({
      method: 'delete',
      path: '/v1/knowledge-bases/:kb_id',
      summary: 'Delete a knowledge base',
      tag,
      scope: 'write',
      response: Deleted('knowledge_base.deleted'),
      handle: async ({ ctx, principal, params, requestId }) => ({ body: await kbs.remove(principal, params.kb_id, ifMatch(ctx), requestId) }),
    }),
  ];
}
