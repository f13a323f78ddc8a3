import type { Transport } from '../http.ts';
import type { CreateKnowledgeBase, Deleted, KnowledgeBase, ListParams, Page, Reindex, UpdateKnowledgeBase } from '../types.ts';

/** `ifMatch`: an `etag` this SDK returned; a stale one is a ConflictError (409) and changes nothing. */
export type ConcurrencyOptions = { ifMatch?: string; signal?: AbortSignal };

const path = (id: string) => `/knowledge-bases/${encodeURIComponent(id)}`;
const ifMatchHeader = (ifMatch?: string): Record<string, string> => (ifMatch ? { 'if-match': ifMatch } : {});

export function knowledgeBasesResource(t: Transport) {
  const withEtag = ({ body, headers }: { body: Omit<KnowledgeBase, 'etag'>; headers: Headers }): KnowledgeBase => ({
    ...body,
    etag: headers.get('etag'),
  });

  return {
    async create(body: CreateKnowledgeBase, options: { signal?: AbortSignal } = {}): Promise<KnowledgeBase> {
      return withEtag(await t.json({ method: 'POST', path: '/knowledge-bases', json: body, signal: options.signal }));
    },
    /** Newest first unless `order: 'asc'`; continue with `after: page.last_id`. */
    async list(params: ListParams & { signal?: AbortSignal } = {}): Promise<Page<KnowledgeBase>> {
      const { signal, ...query } = params;
      const { body } = await t.json<Page<Omit<KnowledgeBase, 'etag'>>>({ method: 'GET', path: '/knowledge-bases', query, signal });
      // A list carries no ETags: get one to update with `ifMatch`.
      return { ...body, data: body.data.map((kb) => ({ ...kb, etag: null })) };
    },
    async get(id: string, options: { signal?: AbortSignal } = {}): Promise<KnowledgeBase> {
      return withEtag(await t.json({ method: 'GET', path: path(id), signal: options.signal }));
    },
    /** Name, description or settings; the server deep-merges `settings` over the current ones. */
    async update(id: string, body: UpdateKnowledgeBase, options: ConcurrencyOptions = {}): Promise<KnowledgeBase> {
      return withEtag(await t.json({ method: 'PATCH', path: path(id), json: body, headers: ifMatchHeader(options.ifMatch), signal: options.signal }));
    },
    /**
     * Re-embeds every ready document with the knowledge base's current embedding model (after
     * changing `settings.embedding_model`): queued at once, done by a worker; follow it with
     * `get(id)`'s `reindex` (`status`, `done`, `total`). A ConflictError (409) while one is under way.
     */
    async reindex(id: string, options: { signal?: AbortSignal } = {}): Promise<Reindex> {
      return (await t.json<Reindex>({ method: 'POST', path: `${path(id)}/reindex`, signal: options.signal })).body;
    },
    async delete(id: string, options: ConcurrencyOptions = {}): Promise<Deleted> {
      return (await t.json<Deleted>({ method: 'DELETE', path: path(id), headers: ifMatchHeader(options.ifMatch), signal: options.signal })).body;
    },
  };
}

export type KnowledgeBasesResource = ReturnType<typeof knowledgeBasesResource>;
