/**
 * How much a page's text looks like language rather than noise. A scan with a bad OCR layer
 * yields tokens such as "t h e i r", "fc-ugsx" or "«POAH"; real text is mostly words. No
 * dictionary: a token counts as a word when it is made of letters of one kind, has a vowel if it
 * is Latin, and has no case flip inside ("tHe"). Numbers are neutral, neither words nor noise.
 */

export type TextQuality = {
  /** Fraction (0..1) of the scored tokens that look like words; 0 when nothing could be scored. */
  score: number;
  /** Tokens that were scored (numbers and lone punctuation are not). */
  tokens: number;
};

const EDGE_PUNCT = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;
const NUMBERISH = /^[\p{N}.,:/%+-]+$/u;
const LATIN = /^[\p{Script=Latin}'’-]+$/u;
const LATIN_VOWEL = /[aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿœ]/i;
const OTHER_LETTERS = /^[\p{L}\p{M}'’-]+$/u;
// Letter-spaced garbage ("t h e i r") is mostly single letters; few languages have many one-letter words.
const SINGLE_WORDS = new Set(['a', 'i', 'à', 'y', 'o']);

function isWordLike(token: string): boolean {
  if (LATIN.test(token)) {
    if (token.length === 1) return SINGLE_WORDS.has(token.toLowerCase());
    if (!LATIN_VOWEL.test(token)) return /^[A-Z]{2,5}$/.test(token); // acronyms: "IRS", "HTTP"
    if (/\p{Ll}\p{Lu}/u.test(token.slice(1))) return false;
    if (/(.)\1\1/u.test(token)) return false;
    return true;
  }
  // Hangul, CJK, Cyrillic …: letters of a script are words (no vowel rule applies).
  return OTHER_LETTERS.test(token) && token.length >= 1 && !/[\p{Script=Latin}]/u.test(token);
}

export function textQuality(text: string): TextQuality {
  const tokens = text
    .split(/\s+/)
    .map((raw) => raw.replace(EDGE_PUNCT, ''))
    .filter((t) => t && !NUMBERISH.test(t));
  let words = 0;
  tokens.forEach((token, i) => {
    // Runs of single letters are letter-spaced noise even when a letter could be a word.
    const spaced = token.length === 1 && (tokens[i - 1]?.length === 1 || tokens[i + 1]?.length === 1);
    if (!spaced && isWordLike(token)) words++;
  });
  return { score: tokens.length ? words / tokens.length : 0, tokens: tokens.length };
}
