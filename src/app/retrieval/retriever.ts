import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { Recall } from '../../domain/retrieval/fusion.ts';
import type { IndexFilter } from '../../ports/vector-index.ts';

/** What every recall is asked: a query over one knowledge base, how many chunks to bring, and within which documents. */
export type RetrievalQuery = {
  text: string;
  kb: KnowledgeBaseDoc;
  depth: number;
  filter: IndexFilter;
  signal?: AbortSignal;
};

/** A chunk a recall found, with that recall's 0..1 score (see docs/api/search.md: `score`). */
export type ScoredHit = { id: string; documentId: string; score: number };

/** One recall (vector, keyword, graph): a query in, the best chunks out, best first. */
export interface Retriever {
  readonly recall: Recall;
  retrieve(query: RetrievalQuery): Promise<readonly ScoredHit[]>;
}
