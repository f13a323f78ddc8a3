import type { ScoredSentence } from './sentence-scoring.ts';

export type SelectionOptions = {
  /** At most this many sentences. */
  maxSentences?: number;
  /** A further sentence may score at most this much below the best (scores are log-odds of holding the answer). */
  dropOff?: number;
  /**
   * The least share of the question's weight a sentence must match: one shared common word
   * ("capital" in a recipe, for a question about Mongolia's capital) is not an answer.
   */
  minCoverage?: number;
  /**
   * A further sentence that matches none of the question's words the chosen ones miss must score
   * within this much of the best: otherwise it merely mentions the question's subject again.
   */
  tie?: number;
};

/** Similarity to an already chosen sentence costs this much of a score per unit of overlap. */
const REDUNDANCY_PENALTY = 2;
/** Past this word overlap a sentence says nothing new (overlapping chunks repeat sentences verbatim). */
const DUPLICATE = 0.7;

/**
 * The best sentences, greedily, each discounted by its likeness to those already chosen; stops at
 * `maxSentences` or when the next falls well below the best (or, if it adds none of the
 * question's words, anywhere below a near tie with it). Returned best first.
 */
export function selectSentences(scored: readonly ScoredSentence[], options: SelectionOptions = {}): ScoredSentence[] {
  const { maxSentences = 2, dropOff = 2, minCoverage = 0.15, tie = 1 } = options;
  const remaining = scored.filter((s) => s.coverage >= minCoverage).sort(byScore);
  const best = remaining[0]?.score ?? 0;
  const chosen: ScoredSentence[] = [];
  const covered = new Set<string>();
  while (chosen.length < maxSentences && remaining.length > 0) {
    let pick = -1;
    let pickScore = -Infinity;
    for (let i = 0; i < remaining.length; i++) {
      const candidate = remaining[i]!;
      const likeness = Math.max(0, ...chosen.map((c) => jaccard(c.stems, candidate.stems)));
      if (likeness >= DUPLICATE) {
        remaining.splice(i--, 1);
        continue;
      }
      const effective = candidate.score - REDUNDANCY_PENALTY * likeness;
      const floor = chosen.length === 0 || [...candidate.covers].some((s) => !covered.has(s)) ? dropOff : tie;
      if (effective >= best - floor && effective > pickScore) [pick, pickScore] = [i, effective];
    }
    if (pick < 0) break;
    const picked = remaining.splice(pick, 1)[0]!;
    chosen.push(picked);
    for (const s of picked.covers) covered.add(s);
  }
  return chosen;
}

/** The order a reader follows: by passage, then by place in it. */
export function readingOrder<T extends { passageRank: number; position: number }>(a: T, b: T): number {
  return a.passageRank - b.passageRank || a.position - b.position;
}

function byScore(a: ScoredSentence, b: ScoredSentence): number {
  return b.score - a.score || readingOrder(a, b);
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}
