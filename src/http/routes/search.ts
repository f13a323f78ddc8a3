import type { SearchHit } from '../../app/retrieval/hits.ts';
import { recallsFor } from '../../app/retrieval/options.ts';
import type { SearchService } from '../../app/services/search.ts';
import { SearchBody, SearchResponse } from '../../../schemas/http/search.ts';
import { abortOnDisconnect } from '../client-abort.ts';
import { route } from '../route.ts';

export function presentHit(hit: SearchHit, explain: boolean) {
  return {
    object: 'search_result' as const,
    chunk_id: hit.chunkId,
    document_id: hit.documentId,
    source: hit.source,
    page: hit.page,
    paragraph: hit.paragraph,
    heading_path: hit.headingPath,
    boxes: hit.boxes,
    score: hit.score,
    ...(explain && { scores: hit.scores }),
  };
}

export function searchRoutes(search: SearchService) {
  return [
    route({
      method: 'post',
      path: '/v1/knowledge-bases/:kb_id/search',
      summary: 'Search a knowledge base: vector, keyword and graph recall, fused by reciprocal rank, optionally reranked',
      tag: 'search',
      scope: 'read',
      load: 'query',
      body: SearchBody,
      response: SearchResponse,
      handle: async ({ principal, params, body, ctx }) => {
        // The request's own 'close' has already fired once its body was read: the response's tells a client that left.
        const aborted = abortOnDisconnect(ctx);
        const { kb, hits, coverage, answerable, terms } = await search.search(
          principal,
          params.kb_id!,
          {
            query: body.query,
            topK: body.top_k,
            scoreThreshold: body.score_threshold,
            mode: body.mode,
            rerank: body.rerank,
            filter: body.filter && { documentIds: body.filter.document_ids, metadata: body.filter.metadata },
          },
          aborted.signal,
        );
        const recalls = recallsFor(body.mode, kb.settings);
        return {
          body: {
            object: 'list',
            data: hits.map((h) => presentHit(h, body.explain ?? false)),
            has_more: false,
            knowledge_base_id: kb.id,
            mode: recalls.length === 1 ? recalls[0] : 'hybrid',
            rerank: body.rerank ?? kb.settings.rerank.enabled,
            coverage,
            answerable,
            ...(body.explain && { coverage_terms: terms ?? [] }),
          },
        };
      },
    }),
  ];
}
