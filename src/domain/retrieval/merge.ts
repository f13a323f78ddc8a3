import { RRF_K } from './fusion.ts';

type Scored = { score: number };

/**
 * One ranking from several knowledge bases' rankings. When their scores compare (the same
 * embedding model and reranker), by score: a hit's 0..1 score is its strongest recall's (or the
 * reranker's), which reads alike across knowledge bases. On SciFact split 1:3 over two knowledge
 * bases, nDCG@10 was 0.762 / 0.727 / 0.752 (keyword / vector / hybrid) by score against 0.751 /
 * 0.715 / 0.740 by rank, and 0.768 / 0.720 / 0.763 with one knowledge base (bench/several-kbs.ts).
 * Otherwise by reciprocal rank, since two models' scores need not compare. Ties keep each list's
 * order, then the order of the lists.
 */
export function mergeRankings<T extends Scored>(rankings: readonly (readonly T[])[], scoresCompare: boolean, k = RRF_K): T[] {
  const voted = rankings.flatMap((list, source) => list.map((item, rank) => ({ item, rank, source, key: scoresCompare ? item.score : 1 / (k + rank + 1) })));
  return voted.sort((a, b) => b.key - a.key || b.item.score - a.item.score || a.rank - b.rank || a.source - b.source).map((v) => v.item);
}
