import { idf } from './bm25.ts';

/** A question's term with how many chunks of the knowledge base hold it. */
export type QuestionTerm = { term: string; documentFrequency: number };

/**
 * How much of what a question asks about one passage holds, 0..1: the idf-weighted share of the
 * question's distinct terms that occur in it, with idf taken over the whole knowledge base. A word
 * the knowledge base never uses weighs most, so a question about something it does not hold
 * ("Who won the 1998 FIFA World Cup final?" of cancer booklets) scores low even when its common
 * words ("won", "final") are everywhere; a question whose rare words meet in one passage scores high.
 */
export function passageCoverage(question: readonly QuestionTerm[], chunkCount: number, passageTerms: ReadonlySet<string>): number {
  let total = 0;
  let held = 0;
  for (const { term, documentFrequency } of question) {
    const weight = idf(documentFrequency, Math.max(chunkCount, documentFrequency));
    total += weight;
    if (passageTerms.has(term)) held += weight;
  }
  return total === 0 ? 0 : held / total;
}

/** The best coverage any of the passages gives, with which one gives it (-1 for none). */
export function bestCoverage(question: readonly QuestionTerm[], chunkCount: number, passages: readonly ReadonlySet<string>[]): { coverage: number; passage: number } {
  let best = { coverage: 0, passage: -1 };
  passages.forEach((terms, passage) => {
    const coverage = passageCoverage(question, chunkCount, terms);
    if (coverage > best.coverage) best = { coverage, passage };
  });
  return best;
}
