import { boundedMemo } from '../shared/bounded-memo.ts';

/**
 * Words as the answer extractor compares them: lower-cased, numbers kept whole ("3.5", "1,000"
 * as "1000"), function words dropped, and a light suffix stripping so that "founded", "founding"
 * and "founds" meet. The stems are only ever compared with each other, never shown, so they need
 * not be real words.
 */
export type Term = { stem: string; word: string };

const WORD = /[\p{L}\p{N}]+(?:[.,]\p{N}+)*/gu;

/**
 * Function words, question words and the filler of requests ("tell me", "please explain"): none
 * says what a question is about, and a match on them would make any sentence look relevant.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing done for from had has have having he her hers herself him himself his how i if in into is it its itself just me might more most must my myself no nor not of off on once only or other our ours ourselves out over own same shall she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom whose why will with would you your yours yourself yourselves ' +
    'about above after again against all also am any because before below between both during each few further here however many much onto per since therefore thus upon via whether yet ' +
    'tell please explain describe know want give show let say said says us would could ok okay thanks thank hi hello yes ' +
    's t d ll m re ve don doesn didn isn aren wasn weren won wouldn shouldn couldn'
  ).split(' '),
);

const DIGIT = /\p{N}/u;

/** Every word of `text`, lower-cased, in order (stop words included). */
export function words(text: string): string[] {
  const found = text.toLowerCase().match(WORD) ?? [];
  for (let i = 0; i < found.length; i++) if (found[i]!.includes(',')) found[i] = found[i]!.replace(/,/g, '');
  return found;
}

/** The content words of `text` in order, each with its stem; repeats kept. */
export function contentTerms(text: string): Term[] {
  const terms: Term[] = [];
  for (const word of words(text)) {
    if (STOP_WORDS.has(word) || (word.length < 2 && !DIGIT.test(word))) continue;
    terms.push({ stem: stem(word), word });
  }
  return terms;
}

const VOWEL = /[aeiouy]/;

/**
 * Plural, -ing, -ed and a final -e, nothing more: enough to join the inflections a question and
 * its answer tend to differ by, without Porter's over-reach ("university" and "universe").
 */
// A hot path (every word of every passage) over a small vocabulary, so stems are remembered.
export const stem = boundedMemo(stemUncached, 100_000);

function stemUncached(word: string): string {
  if (word.length <= 3 || DIGIT.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  else if (w.endsWith('ing') && w.length > 5 && VOWEL.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && !w.endsWith('eed') && w.length > 4 && VOWEL.test(w.slice(0, -2))) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** "running" → "runn" → "run"; but "falling" keeps its "ll" ("fall"). */
function undouble(w: string): string {
  return /([bdgmnprt])\1$/.test(w) ? w.slice(0, -1) : w;
}
