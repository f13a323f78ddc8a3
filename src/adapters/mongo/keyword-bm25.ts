import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { BM25_DEFAULTS, type Bm25Parameters, bestReachable, idf, MAX_TERM_FREQUENCY, saturation } from '../../domain/retrieval/bm25.ts';
import type { KeywordDocument, KeywordMatch } from '../../ports/keyword-index.ts';

/**
 * A term's counts, by term. Terms are runs of letters and digits (the text analyzer's words.ts), never holding `.`
 * or `$` or starting with `_`, so they are safe field names, and a projection can pick a
 * query's few terms out of a long chunk on the server.
 */
export type TermCounts = Record<string, number>;

/** A chunk as `keyword_chunks` stores it. */
export type KeywordChunkDoc = {
  namespace: string;
  chunkId: string;
  documentId: string;
  /** The analysed terms, repeats included, joined by spaces: all the text index ever reads. */
  terms: string;
  tf: TermCounts;
  /** The BM25 length: how many terms the chunk has. */
  length: number;
};

export type ChunkTerms = Pick<KeywordChunkDoc, 'tf' | 'length'>;

/** A row of `keyword_terms`: a term's document frequency, or the namespace's totals under NAMESPACE_STATS. */
export type TermDoc = { namespace: string; term: string; df?: number; chunks?: number; length?: number };

/** The analyser never yields an empty term, so the empty string can name the namespace's own row. */
export const NAMESPACE_STATS = '';


export type CorpusStats = { chunks: number; totalLength: number; df: ReadonlyMap<string, number> };

/** What a query reads back of a candidate: its counts of the query's terms only (none, when Mongo matched it on its own folding alone). */
export type Candidate = { chunkId: string; documentId: string; length: number; tf?: TermCounts };

export type StatsChange = { before: ChunkTerms | null; after: ChunkTerms | null };

export type StatsDelta = { chunks: number; length: number; df: Map<string, number> };

/** The stored form of a chunk, given its terms as the embedded index analyses them. */
export function keywordChunk(namespace: string, doc: KeywordDocument, terms: readonly string[]): KeywordChunkDoc {
  const tf: TermCounts = {};
  for (const term of terms) tf[term] = (Object.hasOwn(tf, term) ? tf[term]! : 0) + 1;
  return { namespace, chunkId: doc.id, documentId: doc.documentId, terms: terms.join(' '), tf, length: terms.length };
}

/** A chunk given twice in one batch ends as its last version, as when the batch is applied in order. */
export function latestPerChunk(docs: readonly KeywordDocument[]): KeywordDocument[] {
  return [...new Map(docs.map((doc) => [doc.id, doc])).values()];
}

/** `Object.hasOwn`, so that a term like "constructor" never reads the prototype. */
export const countOf = (tf: TermCounts, term: string): number => (Object.hasOwn(tf, term) ? tf[term]! : 0);

/** How replacing or removing chunks changes the namespace's totals and its terms' document frequencies. */
export function statsDelta(changes: readonly StatsChange[]): StatsDelta {
  const delta: StatsDelta = { chunks: 0, length: 0, df: new Map() };
  const apply = (side: ChunkTerms | null, sign: 1 | -1) => {
    if (!side) return;
    delta.chunks += sign;
    delta.length += sign * side.length;
    for (const term of Object.keys(side.tf)) delta.df.set(term, (delta.df.get(term) ?? 0) + sign);
  };
  for (const { before, after } of changes) {
    apply(before, -1);
    apply(after, 1);
  }
  for (const [term, d] of delta.df) if (d === 0) delta.df.delete(term);
  return delta;
}

/** The $inc writes that apply a delta; upserts, so the first chunk of a namespace or term creates its row. */
export function statsWrites(namespace: string, delta: StatsDelta): AnyBulkWriteOperation<TermDoc>[] {
  const writes: AnyBulkWriteOperation<TermDoc>[] = [...delta.df].map(([term, d]) => ({
    updateOne: { filter: { namespace, term }, update: { $inc: { df: d } }, upsert: true },
  }));
  if (delta.chunks !== 0 || delta.length !== 0) {
    writes.push({
      updateOne: { filter: { namespace, term: NAMESPACE_STATS }, update: { $inc: { chunks: delta.chunks, length: delta.length } }, upsert: true },
    });
  }
  return writes;
}

/** The terms a delta took chunks from: their rows are dropped once no chunk has them. */
export const decrementedTerms = (delta: StatsDelta): string[] => [...delta.df].filter(([, d]) => d < 0).map(([term]) => term);

export function corpusStats(rows: readonly TermDoc[]): CorpusStats {
  let chunks = 0;
  let totalLength = 0;
  const df = new Map<string, number>();
  for (const row of rows) {
    if (row.term === NAMESPACE_STATS) {
      chunks = row.chunks ?? 0;
      totalLength = row.length ?? 0;
    } else {
      df.set(row.term, row.df ?? 0);
    }
  }
  return { chunks, totalLength, df };
}

/**
 * The chunks Mongo's text index matches to any of `terms`, best textScore first (chunk id breaks
 * ties, so the cut is deterministic), with only what BM25 needs: length and the query terms' counts.
 * The terms reach `$search` as plain words: the analyser leaves no quote or minus to act as an operator.
 */
export function candidatePipeline(namespace: string, terms: readonly string[], cap: number, documentIds?: readonly string[]): Document[] {
  const match: Document = { namespace, $text: { $search: terms.join(' ') } };
  if (documentIds) match.documentId = { $in: [...documentIds] };
  const counts = Object.fromEntries(terms.map((term) => [`tf.${term}`, 1]));
  return [
    { $match: match },
    { $sort: { score: { $meta: 'textScore' }, chunkId: 1 } },
    { $limit: cap },
    { $project: { _id: 0, chunkId: 1, documentId: 1, length: 1, ...counts } },
  ];
}

/**
 * BM25 of each candidate over the namespace's statistics, normalised as the embedded index does
 * (keyword-postings.ts): divided by the best score the query's distinct terms could reach, capped
 * at 1, zero scores dropped, best first, chunk id breaking ties.
 */
export function rankCandidates(
  terms: readonly string[],
  stats: CorpusStats,
  candidates: readonly Candidate[],
  topK: number,
  params: Bm25Parameters = BM25_DEFAULTS,
): KeywordMatch[] {
  const n = stats.chunks;
  const k = Math.min(Math.floor(topK), n);
  if (!(k > 0) || terms.length === 0) return [];
  const weights = terms.map((term) => idf(Math.max(0, stats.df.get(term) ?? 0), n));
  const best = bestReachable(weights, params);
  const average = Math.max(stats.totalLength / n, 1);
  const scored: KeywordMatch[] = [];
  for (const c of candidates) {
    let score = 0;
    for (let i = 0; i < terms.length; i++) {
      const tf = Math.min(countOf(c.tf ?? {}, terms[i]!), MAX_TERM_FREQUENCY);
      if (tf > 0) score += weights[i]! * saturation(tf, c.length, average, params);
    }
    if (score > 0) scored.push({ id: c.chunkId, documentId: c.documentId, score });
  }
  return scored
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, k)
    .map((m) => ({ ...m, score: Math.min(1, m.score / best) }));
}
