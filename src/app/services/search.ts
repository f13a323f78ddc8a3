import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { Answerability } from '../retrieval/answerability.ts';
import type { SearchHit } from '../retrieval/hits.ts';
import type { RetrievalWarning } from '../retrieval/recall-fallback.ts';
import type { RetrievalRequest } from '../retrieval/options.ts';
import type { createRetrieval, RetrievalDeps } from '../retrieval/retrieval.ts';
import { requireAnswerableAsOf } from './as-of.ts';
import { requireKnowledgeBase } from './knowledge-base-access.ts';
import type { Principal } from './principal.ts';

/**
 * What the API, chat and workflows call to retrieve: the knowledge base a key may read, and
 * `retrieveContext` (src/app/retrieval) behind the search endpoint, chat and the knowledge_retrieval node.
 */
type Retrieval = Pick<ReturnType<typeof createRetrieval>, 'retrieveContext' | 'retrieveContextAcross'>;

/** `retrieval`: how retrievals run, as the composition built them once (in this process, or spread over query processes). */
export function createSearchService(deps: Pick<RetrievalDeps, 'readModels' | 'analyzer'>, retrieval: Retrieval) {
  const { retrieveContext, retrieveContextAcross } = retrieval;
  const knowledgeBase = (principal: Principal, kbId: string) => requireKnowledgeBase(deps.readModels, principal, kbId);
  return {
    knowledgeBase,
    /** Each knowledge base the key may read, in the order named; the first it may not is refused as one would be. */
    async knowledgeBases(principal: Principal, kbIds: readonly string[]): Promise<KnowledgeBaseDoc[]> {
      const kbs: KnowledgeBaseDoc[] = [];
      for (const id of kbIds) kbs.push(await knowledgeBase(principal, id));
      return kbs;
    },
    retrieveContext,
    retrieveContextAcross,
    /** The keyword index's analyzer, for callers that read a query as the index would (a vector store search's rewrite_query). */
    analyzer: deps.analyzer,

    /** POST /v1/knowledge-bases/:kb_id/search: the hits of the knowledge base a key may read (no prompt, so no context). */
    async search(principal: Principal, kbId: string, request: RetrievalRequest, signal?: AbortSignal): Promise<{ kb: KnowledgeBaseDoc; hits: SearchHit[]; warnings?: RetrievalWarning[] } & Answerability> {
      const kb = await this.knowledgeBase(principal, kbId);
      if (request.asOf) await requireAnswerableAsOf(deps.readModels, [kb.id], request.asOf);
      const { hits, coverage, answerable, terms, warnings } = await retrieveContext(kb, request, { signal, maxContextTokens: 0 });
      return { kb, hits, coverage, answerable, terms, ...(warnings && { warnings }) };
    },

    /** POST /v1/search: the same over the knowledge bases named, their hits fused by rank. */
    async searchAcross(principal: Principal, kbIds: readonly string[], request: RetrievalRequest, signal?: AbortSignal): Promise<{ kbs: KnowledgeBaseDoc[]; hits: SearchHit[]; warnings?: RetrievalWarning[] } & Answerability> {
      const kbs = await this.knowledgeBases(principal, kbIds);
      if (request.asOf) await requireAnswerableAsOf(deps.readModels, kbIds, request.asOf);
      const { hits, coverage, answerable, terms, warnings } = await retrieveContextAcross(kbs, request, { signal, maxContextTokens: 0 });
      return { kbs, hits, coverage, answerable, terms, ...(warnings && { warnings }) };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
