import { RRF_K } from './fusion.ts';

/**
 * One ranking from several knowledge bases' rankings, by reciprocal rank: each list votes
 * 1/(k + rank) for its items, as recalls are fused within one knowledge base. Ranks, not scores,
 * because a keyword score is normalised by its own knowledge base's statistics and a vector score
 * by its own embedding model, so scores from two knowledge bases need not compare. Items the
 * lists rank alike are ordered by their score, then by list order.
 */
export function fuseRankings<T extends { score: number }>(rankings: readonly (readonly T[])[], k = RRF_K): T[] {
  const voted = rankings.flatMap((list, source) => list.map((item, rank) => ({ item, source, fused: 1 / (k + rank + 1) })));
  return voted.sort((a, b) => b.fused - a.fused || b.item.score - a.item.score || a.source - b.source).map((v) => v.item);
}
