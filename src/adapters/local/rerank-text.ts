import { stem } from '../../domain/retrieval/terms.ts';

/**
 * Words that say nothing about a passage's topic. Longer than the keyword index's list, so that
 * "been", "between" or "during" never count as a query word found; the weights were fitted with it.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have had in into is it its of on or that the their there these this those to was were which with ' +
    'will not no can may than then been being do does did such also both more most other some only very each between after before during while ' +
    'about through over under via'
  ).split(' '),
);

/** Letters-and-digits runs are words; a full stop (or ! ? ;) before white space, or a newline, ends a sentence. */
const PIECES = /[\p{L}\p{N}]+|[.!?;](?=\s)|\n/gu;
const SEPARATORS = new Set(['.', '!', '?', ';', '\n']);

/** A first line longer than this is prose, not a heading or title. */
const MAX_TITLE_WORDS = 40;

export type QueryTerm = { stem: string; word: string };

/**
 * The query's distinct content words, stemmed as the keyword index stems them ("inhibits",
 * "inhibited" and "inhibiting" meet as "inhibit"), in order of first appearance.
 */
export function queryTerms(query: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  for (const [piece] of query.toLowerCase().matchAll(PIECES)) {
    if (SEPARATORS.has(piece) || STOP_WORDS.has(piece)) continue;
    const s = stem(piece);
    if (seen.has(s)) continue;
    seen.add(s);
    terms.push({ stem: s, word: piece });
  }
  return terms;
}

/**
 * What the features need from one passage: its length in content words, and where query terms
 * occur. `hitTerm[k]` is the query term index of the k-th occurrence, `hitSentence[k]` its
 * sentence number (occurrences come in text order, so sentences ascend), and `hitInTitle[k]` is 1
 * when it sits in the first line and that line is short enough to be a heading or title (the
 * search service puts a chunk's heading path there).
 */
export type PassageScan = { length: number; hitTerm: number[]; hitSentence: number[]; hitInTitle: number[] };

export function scanPassage(text: string, termIndex: ReadonlyMap<string, number>): PassageScan {
  const scan: PassageScan = { length: 0, hitTerm: [], hitSentence: [], hitInTitle: [] };
  let sentence = 0;
  let wordsInSentence = 0;
  let inFirstLine = true;
  let firstLineWords = 0;
  let titleHits = 0;
  for (const [piece] of text.toLowerCase().matchAll(PIECES)) {
    if (SEPARATORS.has(piece)) {
      if (piece === '\n' && inFirstLine) {
        inFirstLine = false;
        // The first line was prose after all: its hits were marked as title ones; take that back.
        if (firstLineWords > MAX_TITLE_WORDS) for (let k = 0; k < titleHits; k++) scan.hitInTitle[k] = 0;
      }
      if (wordsInSentence > 0) sentence++;
      wordsInSentence = 0;
      continue;
    }
    if (STOP_WORDS.has(piece)) continue;
    scan.length++;
    wordsInSentence++;
    if (inFirstLine) firstLineWords++;
    const term = termIndex.get(stem(piece));
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
