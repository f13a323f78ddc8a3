import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { Answerability } from '../retrieval/answerability.ts';
import type { SearchHit } from '../retrieval/hits.ts';
import type { RetrievalRequest } from '../retrieval/options.ts';
import { createRetrieval, type RetrievalDeps } from '../retrieval/retrieval.ts';
import { requireKnowledgeBase } from './knowledge-base-access.ts';
import type { Principal } from './principal.ts';

/**
 * What the API, chat and workflows call to retrieve: the knowledge base a key may read, and
 * `retrieveContext` (src/app/retrieval) behind the search endpoint, chat and the knowledge_retrieval node.
 */
export function createSearchService(deps: RetrievalDeps) {
  const { retrieveContext } = createRetrieval(deps);
  return {
    knowledgeBase: (principal: Principal, kbId: string) => requireKnowledgeBase(deps.readModels, principal, kbId),
    retrieveContext,

    /** POST /v1/knowledge-bases/:kb_id/search: the hits of the knowledge base a key may read (no prompt, so no context). */
    async search(principal: Principal, kbId: string, request: RetrievalRequest, signal?: AbortSignal): Promise<{ kb: KnowledgeBaseDoc; hits: SearchHit[] } & Answerability> {
      const kb = await this.knowledgeBase(principal, kbId);
      const { hits, coverage, answerable, terms } = await retrieveContext(kb, request, { signal, maxContextTokens: 0 });
      return { kb, hits, coverage, answerable, terms };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
