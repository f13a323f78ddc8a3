import { idf } from './bm25.ts';

/** A question's term with how many chunks of the knowledge base hold it. */
export type QuestionTerm = { term: string; documentFrequency: number };

/** A retrieved passage as coverage reads it: the terms of its headings, and of each sentence in order. */
export type PassageTerms = { heading: ReadonlySet<string>; sentences: readonly ReadonlySet<string>[] };

export type Coverage = { coverage: number; passage: number; held: ReadonlySet<string> };

/**
 * How much of what a question asks the passages hold, 0..1. Each distinct question term weighs
 * its idf over the whole knowledge base, so a word the knowledge base never uses weighs most and a
 * question about something it does not hold ("Who won the 1998 FIFA World Cup final?" of cancer
 * booklets) scores low even when its common words are everywhere. The share is taken over a
 * stretch of text an answer could quote, not a whole chunk, where unrelated words meet by chance:
 * the mean of the best single sentence's share and the best two adjacent sentences' share, each
 * read under its passage's headings (a section named "Normans" is about the Normans). Fitted on
 * half of SQuAD 2.0's articles against off-topic questions: of the simple forms tried (whole
 * chunk, one sentence, windows, idf to the power 0–3, a logistic mix of seven features) this
 * separated best short of the logistic mix, within a point of it and explainable.
 */
export function questionCoverage(question: readonly QuestionTerm[], chunkCount: number, passages: readonly PassageTerms[]): Coverage {
  const weights = question.map(({ documentFrequency }) => idf(documentFrequency, Math.max(chunkCount, documentFrequency)));
  const total = weights.reduce((a, b) => a + b, 0);
  const none: Coverage = { coverage: 0, passage: -1, held: new Set() };
  if (total === 0) return none;
  const share = (...sets: ReadonlySet<string>[]) => question.reduce((sum, { term }, k) => (sets.some((s) => s.has(term)) ? sum + weights[k]! : sum), 0) / total;
  let one = none;
  let two = 0;
  passages.forEach(({ heading, sentences }, passage) => {
    sentences.forEach((sentence, i) => {
      const single = share(heading, sentence);
      if (single > one.coverage) one = { coverage: single, passage, held: heldTerms(question, heading, sentence) };
      two = Math.max(two, single, share(heading, sentence, sentences[i + 1] ?? sentence));
    });
  });
  return { ...one, coverage: (one.coverage + two) / 2 };
}

function heldTerms(question: readonly QuestionTerm[], ...sets: ReadonlySet<string>[]): Set<string> {
  return new Set(question.filter(({ term }) => sets.some((s) => s.has(term))).map((t) => t.term));
}
