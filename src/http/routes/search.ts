import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { Answerability } from '../../app/retrieval/answerability.ts';
import type { SearchHit } from '../../app/retrieval/hits.ts';
import type { RetrievalWarning } from '../../app/retrieval/recall-fallback.ts';
import { type RetrievalRequest, recallsFor } from '../../app/retrieval/options.ts';
import type { SearchService } from '../../app/services/search.ts';
import { asOfOf } from '../../app/services/as-of.ts';
import { SEARCH_INCLUDE, SearchAcrossBody, SearchAcrossResponse, SearchBody, SearchResponse, type SearchInclude } from '../../../schemas/http/search.ts';
import { abortOnDisconnect } from '../client-abort.ts';
import { retrievalFilter } from '../retrieval-filter.ts';
import { route } from '../route.ts';

const PASSAGE_PARTS: readonly SearchInclude[] = ['paragraph', 'heading_path', 'boxes'];

/** The parts a body asks for: its include, else the passage, and the explain data with explain. */
export function includedParts(body: Pick<SearchBody, 'include' | 'explain'>): ReadonlySet<SearchInclude> {
  return new Set(body.include ?? (body.explain ? SEARCH_INCLUDE : PASSAGE_PARTS));
}

export function presentHit(hit: SearchHit, parts: ReadonlySet<SearchInclude>) {
  return {
    object: 'search_result' as const,
    chunk_id: hit.chunkId,
    document_id: hit.documentId,
    document_version: hit.documentVersion,
    knowledge_base_id: hit.knowledgeBaseId,
    source: hit.source,
    page: hit.page,
    ...(parts.has('paragraph') && { paragraph: hit.paragraph }),
    ...(parts.has('heading_path') && { heading_path: hit.headingPath }),
    ...(parts.has('boxes') && { boxes: hit.boxes }),
    score: hit.score,
    ...(parts.has('scores') && { scores: hit.scores }),
  };
}

/** What both search routes answer around the hits: the list, the mode, rerank and the gate, as `include` asks. */
function hitList(body: SearchBody, kbs: readonly KnowledgeBaseDoc[], found: { hits: SearchHit[]; terms?: unknown[]; warnings?: RetrievalWarning[] } & Answerability) {
  const parts = includedParts(body);
  return {
    object: 'list' as const,
    data: found.hits.map((h) => presentHit(h, parts)),
    has_more: false,
    mode: modeOf(body, kbs),
    rerank: body.rerank ?? kbs.some((kb) => kb.settings.rerank.enabled),
    coverage: found.coverage,
    answerable: found.answerable,
    ...(parts.has('coverage_terms') && { coverage_terms: found.terms ?? [] }),
    ...(found.warnings && { warnings: found.warnings }),
  };
}

function retrievalRequest(body: SearchBody): RetrievalRequest {
  const asOf = asOfOf(body.as_of);
  return { query: body.query, topK: body.top_k, scoreThreshold: body.score_threshold, mode: body.mode, rerank: body.rerank, filter: retrievalFilter(body.filter), ...(asOf && { asOf }) };
}

/** The mode the knowledge bases searched in: one recall when they all used the same single one, else hybrid. */
function modeOf(body: SearchBody, kbs: readonly KnowledgeBaseDoc[]) {
  const recalls = new Set(kbs.flatMap((kb) => recallsFor(body.mode, kb.settings)));
  return recalls.size === 1 ? [...recalls][0]! : 'hybrid';
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
        const found = await search.search(principal, params.kb_id, retrievalRequest(body), aborted.signal);
        return { body: { ...hitList(body, [found.kb], found), knowledge_base_id: found.kb.id } };
      },
    }),
    route({
      method: 'post',
      path: '/v1/search',
      summary: 'Search one knowledge base or several (knowledge_base_ids): each searched with its settings, the results fused by rank, each naming its knowledge base',
      tag: 'search',
      scope: 'read',
      load: 'query',
      body: SearchAcrossBody,
      response: SearchAcrossResponse,
      handle: async ({ principal, body, ctx }) => {
        const aborted = abortOnDisconnect(ctx);
        const ids = body.knowledge_base_ids ?? [body.knowledge_base_id!];
        const found = await search.searchAcross(principal, ids, retrievalRequest(body), aborted.signal);
        return { body: { ...hitList(body, found.kbs, found), knowledge_base_ids: ids } };
      },
    }),
  ];
}
