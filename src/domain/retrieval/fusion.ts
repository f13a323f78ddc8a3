import type { Recall } from '../../../schemas/retrieval.ts';

/** The recalls a search can combine. */
export type { Recall };

/** What one recall returned, best first, with scores already in 0..1. */
export type RecallList = { recall: Recall; matches: readonly { id: string; documentId: string; score: number }[] };

export type Candidate = {
  id: string;
  documentId: string;
  /** Each recall's 0..1 score for this chunk; absent when that recall did not return it. */
  scores: Partial<Record<Recall, number>>;
  /** Reciprocal-rank fusion, scaled so 1 means first in every recall that ran. */
  fused: number;
  /** The relevance reported to clients (see `score` in docs/api/search.md: the strongest recall's score). */
  score: number;
};

/** Cormack et al.'s constant: ranks deep in one list still count, but the top of each dominates. */
export const RRF_K = 60;

/**
 * Reciprocal-rank fusion: each list votes 1/(k + rank) for its chunks. Ranks, not raw scores,
 * are fused, so a recall whose scores run hot cannot drown the others. The order is the fused
 * one; each candidate's `score` is the best 0..1 score any recall gave it, which stays
 * meaningful across queries (a fused rank does not: the top of any list always looks perfect).
 */
export function fuseByReciprocalRank(lists: readonly RecallList[], k = RRF_K): Candidate[] {
  const byId = new Map<string, Candidate>();
  const ran = lists.length;
  for (const { recall, matches } of lists) {
    matches.forEach((match, rank) => {
      let candidate = byId.get(match.id);
      if (!candidate) {
        candidate = { id: match.id, documentId: match.documentId, scores: {}, fused: 0, score: 0 };
        byId.set(match.id, candidate);
      }
      candidate.scores[recall] = clamp01(match.score);
      candidate.fused += (k + 1) / (k + rank + 1) / ran;
      candidate.score = Math.max(candidate.score, clamp01(match.score));
    });
  }
  return [...byId.values()].sort((a, b) => b.fused - a.fused || b.score - a.score || (a.id < b.id ? -1 : 1));
}

export function clamp01(value: number): number {
  return value <= 0 || Number.isNaN(value) ? 0 : value >= 1 ? 1 : value;
}
