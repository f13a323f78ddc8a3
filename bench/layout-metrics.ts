/**
 * Reading-order figures: word accuracy and 5-gram recall of a parser's text against a reference.
 * Both compare words case-sensitively after one normalisation: NFKC, typographic quotes and
 * dashes folded to ASCII, dot leaders (three dots or more) dropped, whitespace collapsed.
 * Leaders are dropped because their length depends on the font, not on the reading order.
 */

export function layoutWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201a\u201b]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u00ab\u00bb]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/(?:\.\s?){3,}/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** 1 − word-level edit distance / reference words (may go below 0 when the output is much longer). */
export const wordAccuracy = (reference: string, output: string): number => wordsAccuracy(layoutWords(reference), layoutWords(output));

/** The same over words already split, however the caller normalises them (the OCR tests fold case and punctuation). */
export function wordsAccuracy(ref: readonly string[], out: readonly string[]): number {
  if (!ref.length) return out.length ? 0 : 1;
  let previous = Array.from({ length: out.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const current = [i];
    for (let j = 1; j <= out.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ref[i - 1] === out[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return 1 - previous[out.length]! / ref.length;
}

const grams = (words: readonly string[], n: number) => Array.from({ length: Math.max(0, words.length - n + 1) }, (_, i) => words.slice(i, i + n).join(' '));

/**
 * The share of the reference's n-word runs (with multiplicity) that occur in the output. A text
 * read across its columns keeps its words but loses most runs; a shorter reference than n words
 * is one run, the whole of it.
 */
export function nGramRecall(reference: string, output: string, n = 5): number {
  const ref = layoutWords(reference);
  const out = layoutWords(output);
  const size = Math.min(n, ref.length);
  if (!size) return 1;
  const available = new Map<string, number>();
  for (const g of grams(out, size)) available.set(g, (available.get(g) ?? 0) + 1);
  let found = 0;
  const wanted = grams(ref, size);
  for (const g of wanted) {
    const left = available.get(g) ?? 0;
    if (left > 0) {
      found++;
      available.set(g, left - 1);
    }
  }
  return found / wanted.length;
}
