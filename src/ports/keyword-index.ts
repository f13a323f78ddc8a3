import type { IndexFilter } from './vector-index.ts';

export type KeywordDocument = { id: string; documentId: string; text: string };

export type TermStats = { documents: number; terms: { term: string; documentFrequency: number }[] };

export type KeywordMatch = { id: string; documentId: string; score: number };

/** BM25 over chunk text, one namespace per knowledge base. */
export interface KeywordIndex {
  upsert(namespace: string, docs: KeywordDocument[]): Promise<void>;
  deleteByDocument(namespace: string, documentId: string): Promise<void>;
  deleteNamespace(namespace: string): Promise<void>;
  /**
   * Best first. `score` is in 0..1: the chunk's BM25 divided by the best BM25 the query could
   * reach (every query term present, saturated), so it says how well the chunk covers the query
   * and is comparable across queries, which a raw BM25 is not.
   */
  query(namespace: string, text: string, topK: number, filter?: IndexFilter): Promise<KeywordMatch[]>;
  count(namespace: string): Promise<number>;
  /**
   * The query's distinct analysed terms, each with how many chunks of the namespace hold it (0 when
   * none does), and how many chunks the namespace has: what answerability weighs a question with.
   */
  termStats(namespace: string, text: string): Promise<TermStats>;
  ping(): Promise<void>;
}
