/**
 * How a run of Chinese or Japanese script becomes terms: the segmenter's words, overlapping
 * character bigrams (the classic way to match words written without spaces), or both.
 */
export type CjkMode = 'words' | 'bigrams' | 'words+bigrams';

/**
 * Scripts matched by character pairs. Hangul too: a Korean word carries its particles
 * ("유효기간은", "유효기간의"), which pairs match past and no stemmer on npm strips.
 */
const HAN_OR_KANA = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{Script=Hangul}]/u;

/** ICU's dictionary segmenter; its word lists go by script, not by the locale asked for. */
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * Calls `visit` with the pieces of the run text[start, end) that should become words, as
 * offsets into `text`; `bigram` marks the pieces that are character pairs rather than words.
 */
export function segmentRun(text: string, start: number, end: number, cjk: CjkMode, visit: (s: number, e: number, bigram: boolean) => void): void {
  const run = text.slice(start, end);
  const han = HAN_OR_KANA.test(run);
  if (!han || cjk !== 'bigrams') {
    for (const piece of segmenter.segment(run)) {
      if (piece.isWordLike) visit(start + piece.index, start + piece.index + piece.segment.length, false);
    }
  }
  if (han && cjk !== 'words') bigrams(run, start, visit);
}

function bigrams(run: string, offset: number, visit: (s: number, e: number, bigram: boolean) => void) {
  let previous = -1;
  let count = 0;
  for (let i = 0; i < run.length; ) {
    const width = run.codePointAt(i)! > 0xffff ? 2 : 1;
    if (previous >= 0) visit(offset + previous, offset + i + width, true);
    previous = i;
    count++;
    i += width;
  }
  if (count === 1) visit(offset, offset + run.length, true);
}
