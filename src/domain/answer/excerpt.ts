import type { TermReader } from './words.ts';

/** Longer sentences (often a whole table row or a run-on paragraph without full stops) are cut to this. */
export const EXCERPT_WORDS = 50;
/** A guard for text without spaces to cut at (long identifiers, URLs). */
export const EXCERPT_CHARS = 400;
export const ELLIPSIS = '…';

/**
 * A sentence cut down to the `maxWords` stretch that matches the question best, with an ellipsis
 * wherever text was left out; shorter sentences come back whole. The words themselves are never
 * changed, so the excerpt stays a quotation.
 */
export function excerpt(text: string, weightOf: (stem: string) => number, read: TermReader, maxWords = EXCERPT_WORDS, maxChars = EXCERPT_CHARS): string {
  const all = text.split(' ');
  let start = 0;
  let end = all.length;
  if (all.length > maxWords) {
    const gains = all.map((w) => read(w).reduce((sum, t) => sum + weightOf(t.stem), 0));
    let window = gains.slice(0, maxWords).reduce((a, b) => a + b, 0);
    let best = window;
    for (let i = 1; i + maxWords <= all.length; i++) {
      window += gains[i + maxWords - 1]! - gains[i - 1]!;
      if (window > best) [best, start] = [window, i];
    }
    // Centred on the matches it holds, so the words around them give them some context.
    let first = start;
    let last = start + maxWords - 1;
    while (first < last && gains[first] === 0) first++;
    while (last > first && gains[last] === 0) last--;
    start = Math.max(0, Math.min(all.length - maxWords, Math.round((first + last + 1 - maxWords) / 2)));
    end = start + maxWords;
  }
  let body = all.slice(start, end).join(' ');
  if (body.length > maxChars) {
    const space = body.lastIndexOf(' ', maxChars);
    body = body.slice(0, space > maxChars * 0.75 ? space : maxChars);
    end = -1;
  }
  return `${start > 0 ? `${ELLIPSIS} ` : ''}${body}${end !== all.length ? ` ${ELLIPSIS}` : ''}`;
}
