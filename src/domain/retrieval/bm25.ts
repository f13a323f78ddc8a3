/** BM25's term-frequency saturation (k1) and length normalisation (b). */
export type Bm25Parameters = { k1: number; b: number };

/**
 * Anserini's defaults. On SciFact a grid of k1 0.6–1.5 by b 0.3–0.9 was flat (nDCG@10 0.694 to
 * 0.702), and the best pair on half of the claims did no better than these on the other half.
 */
export const BM25_DEFAULTS: Bm25Parameters = { k1: 0.9, b: 0.4 };

/**
 * Lucene's idf: never negative, however common the term, and finite for a term no chunk has
 * (df = 0), which still has to count in a query's best reachable score.
 */
export const idf = (documentFrequency: number, chunkCount: number) =>
  Math.log(1 + (chunkCount - documentFrequency + 0.5) / (documentFrequency + 0.5));

/** One term's contribution before idf: tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)), below k1+1. */
export const saturation = (tf: number, length: number, averageLength: number, { k1, b }: Bm25Parameters) =>
  (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / averageLength));

/**
 * The best BM25 a query can reach: every one of its distinct terms present and saturated. A
 * chunk's BM25 divided by this is in 0..1 and comparable across queries.
 */
export const bestReachable = (idfs: readonly number[], { k1 }: Bm25Parameters) => idfs.reduce((sum, w) => sum + w * (k1 + 1), 0);

/** Term frequencies count up to here: BM25 saturates long before, and one byte per posting keeps 100k chunks' postings near 25 MB. */
export const MAX_TERM_FREQUENCY = 255;
