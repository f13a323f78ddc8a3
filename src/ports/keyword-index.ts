import type { IndexFilter } from './vector-index.ts';

export type KeywordDocument = { id: string; documentId: string; text: string };

export type KeywordMatch = { id: string; documentId: string; score: number };

/** BM25 over chunk text, one namespace per knowledge base. */
export interface KeywordIndex {
  upsert(namespace: string, docs: KeywordDocument[]): Promise<void>;
  deleteByDocument(namespace: string, documentId: string): Promise<void>;
  deleteNamespace(namespace: string): Promise<void>;
  /** Best first; `score` is the BM25 score (higher is better, unbounded). */
  query(namespace: string, text: string, topK: number, filter?: IndexFilter): Promise<KeywordMatch[]>;
  count(namespace: string): Promise<number>;
  ping(): Promise<void>;
}
