/**
 * Sentence boundaries by punctuation: after . ! ? (and their CJK forms) followed by space and a
 * plausible sentence start. Abbreviations such as "e.g. foo" and "Fig. 3" stay joined, which
 * errs on the side of longer sentences rather than cutting a thought in half.
 */
const BOUNDARY = /(?<=[.!?…])["')\]]*\s+(?=["'(\[]?[\p{Lu}\p{N}])|(?<=[。！？])/gu;
const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs|fig|figs|eq|no|nos|mr|mrs|ms|dr|prof|st|jr|sr|inc|ltd|co|al|approx|cf|sec|vol|pp|ch)\.$/i;

export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(BOUNDARY)) {
    const end = match.index!;
    const candidate = text.slice(start, end);
    if (ABBREVIATION.test(candidate.trimEnd()) || /\b\p{Lu}\.$/u.test(candidate.trimEnd())) continue;
    if (candidate.trim()) sentences.push(candidate.trim());
    start = end + match[0].length;
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}
