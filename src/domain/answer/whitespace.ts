/**
 * Whether a UTF-16 code unit is what `/\s/u` matches: the hot loop below tests every character,
 * and a regex per character made this the largest allocation of a search (241 KB of 577).
 */
function isSpace(code: number): boolean {
  if (code < 0x80) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/**
 * `text[start, end)` with every run of white space made one space and the ends trimmed, and for
 * each of its characters where it came from: what lets a match in normalised text point back at
 * the original. The text is cut into its words' slices and joined once.
 */
export function normalisedWithOrigin(text: string, start = 0, end = text.length): { normal: string; origin: Int32Array } {
  const origin = new Int32Array(Math.max(0, end - start));
  const words: string[] = [];
  let length = 0;
  let wordStart = -1;
  for (let i = start; i <= end; i++) {
    const space = i === end || isSpace(text.charCodeAt(i));
    if (!space) {
      if (wordStart < 0) {
        // The space joining two words stands for the last white space before this one.
        if (length > 0) origin[length++] = i - 1;
        wordStart = i;
      }
      origin[length++] = i;
    } else if (wordStart >= 0) {
      words.push(text.slice(wordStart, i));
      wordStart = -1;
    }
  }
  return { normal: words.join(' '), origin: origin.subarray(0, length) };
}
