import type { DocumentDoc } from '../../../projections/documents/index.ts';
import type { VectorStoreSearchBody } from '../../../schemas/http/openai-vector-stores.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import { rewriteQuery } from '../../domain/retrieval/query-rewrite.ts';
import type { Principal } from './principal.ts';
import type { SearchService } from './search.ts';
import type { VectorStoreService } from './vector-stores.ts';

/**
 * POST /v1/vector_stores/{id}/search over the knowledge base's retrieval: OpenAI's filters are our
 * metadata grammar as they are, `max_num_results` the number of hits, `ranking_options.ranker:
 * none` turns reranking off (any other ranker keeps the knowledge base's setting), and
 * `score_threshold` is our threshold on our scores (which are not OpenAI's). Several queries are
 * searched as one text.
 */
export function createVectorStoreSearch(deps: { search: SearchService; stores: VectorStoreService; readModels: ReadModelStore }) {
  return async function search(principal: Principal, kbId: string, body: VectorStoreSearchBody, signal?: AbortSignal) {
    const queries = typeof body.query === 'string' ? [body.query] : body.query;
    const kb = await deps.search.knowledgeBase(principal, kbId);
    const asked = body.rewrite_query
      ? queries.map((q) => rewriteQuery(q, deps.search.analyzer.tokens(q, kb.settings.language === 'auto' ? undefined : kb.settings.language)))
      : queries;
    const { hits } = await deps.search.search(
      principal,
      kbId,
      {
        query: asked.join('\n'),
        topK: body.max_num_results,
        ...(body.ranking_options?.score_threshold !== undefined && { scoreThreshold: body.ranking_options.score_threshold }),
        ...(body.ranking_options?.ranker === 'none' && { rerank: false }),
        ...(body.filters && { filter: { metadata: body.filters } }),
      },
      signal,
    );
    const docs = await deps.readModels.getMany<DocumentDoc>('documents', [...new Set(hits.map((h) => h.documentId))]);
    const fileIds = await deps.stores.fileIds(principal.workspaceId, [...docs.values()]);
    return {
      object: 'vector_store.search_results.page' as const,
      search_query: asked,
      data: hits.map((hit) => ({
        file_id: fileIds.get(hit.documentId) ?? hit.documentId,
        filename: hit.source,
        score: hit.score,
        attributes: docs.get(hit.documentId)?.metadata ?? {},
        content: [{ type: 'text' as const, text: hit.paragraph }],
      })),
      has_more: false,
      next_page: null,
    };
  };
}
