import type { PassageDocument } from './passage-store.ts';
import type { IndexFilter } from './vector-index.ts';

export type KeywordDocument = { id: string; documentId: string; text: string };

export type KeywordMatch = { id: string; documentId: string; score: number };

/**
 * The language texts are analysed in: an ISO 639-1 code a knowledge base pinned, or absent
 * ('auto') to let the index choose: each document's language as detected on upsert, a query's as
 * detected when the detector is sure (else the one its script suggests).
 */
export type KeywordOptions = { language?: string };

/** A query's distinct analysed terms, each with how many chunks of the namespace hold it, and the namespace's chunk count. */
export type TermStats = { documents: number; terms: { term: string; word: string; documentFrequency: number }[] };

/** BM25 over chunk text, one namespace per knowledge base. */
export interface KeywordIndex {
  upsert(namespace: string, docs: KeywordDocument[], options?: KeywordOptions): Promise<void>;
  deleteByDocument(namespace: string, documentId: string): Promise<void>;
  /** Removes these chunks (a retired version's, issue 44); ids not stored are ignored. */
  deleteChunks(namespace: string, chunkIds: readonly string[]): Promise<void>;
  deleteNamespace(namespace: string): Promise<void>;
  /**
   * Best first. `score` is in 0..1: the chunk's BM25 divided by the best BM25 the query could
   * reach (every query term present, saturated), so it says how well the chunk covers the query
   * and is comparable across queries, which a raw BM25 is not.
   */
  query(namespace: string, text: string, topK: number, filter?: IndexFilter, options?: KeywordOptions): Promise<KeywordMatch[]>;
  /** How common each of the query's terms is in the namespace (0 for a term no chunk has): what answerability needs. */
  termStats(namespace: string, text: string, options?: KeywordOptions): Promise<TermStats>;
  /**
   * Documents whose terms an older analyzer wrote, in (namespace, document id) order after
   * `after`, at most `limit`: upsert their chunks again, then call `markAnalyzed`. Empty when the
   * index is current.
   */
  stale(after: PassageDocument | null, limit: number): Promise<PassageDocument[]>;
  /** Records that every document's terms are the current analyzer's. */
  markAnalyzed(): Promise<void>;
  count(namespace: string): Promise<number>;
  ping(): Promise<void>;
}
