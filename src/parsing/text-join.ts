/**
 * Turning visual lines back into running text: shared by the PDF text layer and by OCR, which
 * both hand us a paragraph as a list of lines.
 */

/** Collapses whitespace runs (including no-break spaces) to one space and trims. */
export const normalizeSpace = (text: string): string => text.replace(/[\s\u00a0\u2000-\u200b\u202f\u205f\u3000]+/g, ' ').trim();

// A word broken at the line end: a letter, then a hyphen (or a soft hyphen) closing the line.
const BROKEN_WORD = /(\p{L})[-\u00ad]$/u;
const SOFT_HYPHEN_END = /\u00ad$/u;

/**
 * Joins the lines of one paragraph. A hyphen that ends a line after a letter and is followed by a
 * lowercase letter is taken for hyphenation and removed ("vir-" + "tual" → "virtual"); compounds
 * that happen to break at their own hyphen lose it too, which costs less than keeping every
 * typeset hyphen in the middle of words. Before a capital the hyphen stays and the space goes.
 */
export function joinLines(lines: readonly string[]): string {
  let out = '';
  for (const raw of lines) {
    const line = normalizeSpace(raw);
    if (!line) continue;
    if (!out) {
      out = line;
    } else if (SOFT_HYPHEN_END.test(out) || (BROKEN_WORD.test(out) && /^\p{Ll}/u.test(line))) {
      out = out.slice(0, -1) + line;
    } else if (BROKEN_WORD.test(out) && /^[\p{Lu}\p{N}]/u.test(line)) {
      out += line; // "Trace-" + "Monkey", "IEEE-" + "754": a name or compound, keep its hyphen

    } else if (/[/\u2013\u2014]$/u.test(out)) {
      out += line; // "Terms/Definitions/" + "Acronyms": a break after a slash or dash adds no space
    } else {
      out += ' ' + line;
    }
  }
  return out.replace(/\u00ad/g, '');
}
