import type { Analyzer, Token } from '../../ports/analyzer.ts';

/** A full stop (or ! ? ;) before white space or the end ends a sentence; so does a line break. */
const SENTENCE_END = /[.!?;](?:\s|$)|\n/;

/** A first line longer than this is prose, not a heading or title. */
const MAX_TITLE_WORDS = 40;

export type QueryTerm = { stem: string; word: string };

/**
 * The query's distinct content words as the analyzer stems them ("inhibits", "inhibited" and
 * "inhibiting" meet as "inhibit"), in order of first appearance.
 */
export function queryTerms(analyzer: Analyzer, query: string, language: string): QueryTerm[] {
  const terms = new Map<string, string>();
  for (const token of analyzer.tokens(query, language)) if (!token.stop && !terms.has(token.term)) terms.set(token.term, token.word);
  return [...terms].map(([stem, word]) => ({ stem, word }));
}

/**
 * What the features need from one passage: its length in content words, and where query terms
 * occur. `hitTerm[k]` is the query term index of the k-th occurrence, `hitSentence[k]` its
 * sentence number (occurrences come in text order, so sentences ascend), and `hitInTitle[k]` is 1
 * when it sits in the first line and that line is short enough to be a heading or title (the
 * search service puts a chunk's heading path there).
 */
export type PassageScan = { length: number; hitTerm: number[]; hitSentence: number[]; hitInTitle: number[] };

export function scanPassage(analyzer: Analyzer, text: string, termIndex: ReadonlyMap<string, number>, language: string): PassageScan {
  const scan: PassageScan = { length: 0, hitTerm: [], hitSentence: [], hitInTitle: [] };
  let sentence = 0;
  let wordsInSentence = 0;
  let inFirstLine = true;
  let firstLineWords = 0;
  let titleHits = 0;
  let previousEnd = 0;
  const between = (token: Token) => {
    // What separates this word from the last one decides whether a sentence or the first line ended.
    const gap = text.slice(previousEnd, token.start);
    previousEnd = token.end;
    if (inFirstLine && gap.includes('\n')) {
      inFirstLine = false;
      // The first line was prose after all: its hits were marked as title ones; take that back.
      if (firstLineWords > MAX_TITLE_WORDS) for (let k = 0; k < titleHits; k++) scan.hitInTitle[k] = 0;
    }
    if (wordsInSentence > 0 && SENTENCE_END.test(gap)) {
      sentence++;
      wordsInSentence = 0;
    }
  };
  for (const token of analyzer.tokens(text, language)) {
    between(token);
    if (token.stop) continue;
    scan.length++;
    wordsInSentence++;
    if (inFirstLine) firstLineWords++;
    const term = termIndex.get(token.term);
    if (term === undefined) continue;
    scan.hitTerm.push(term);
    scan.hitSentence.push(sentence);
    scan.hitInTitle.push(inFirstLine ? 1 : 0);
    if (inFirstLine) titleHits++;
  }
  // A passage with no line break has no title line.
  if (inFirstLine) scan.hitInTitle.fill(0);
  return scan;
}
