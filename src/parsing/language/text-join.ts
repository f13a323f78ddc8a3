/**
 * Turning visual lines back into running text: shared by the PDF text layer and by OCR, which
 * both hand us a paragraph as a list of lines.
 */

/** Collapses whitespace runs (including no-break spaces) to one space and trims. */
export const normalizeSpace = (text: string): string => text.replace(/[\s\u00a0\u2000-\u200b\u202f\u205f\u3000]+/g, ' ').trim();

// A word broken at the line end: a letter, then a hyphen (ASCII, U+2010 or soft) closing the line.
const BROKEN_WORD = /(\p{L})[-\u2010\u00ad]$/u;
const SOFT_HYPHEN_END = /\u00ad$/u;

// Prefixes English writes with a hyphen ("self-aware", "well-known", "e-mail"): a line that
// breaks after one breaks at the compound's own hyphen, which stays. Only prefixes where
// hyphenation itself would not break: "re-", "co-", "non-", "ex-" are also where TeX splits
// "re-port", "co-ver", "non-linear", "ex-ample", so they are left to the general rule.
const COMPOUND_PREFIX = /(?:^|[\s(\[“"‘'])(?:self|well|all|half|cross|quasi|e)[-\u2010]$/iu;
// A word that already holds a hyphen before the break ("state-of-" + "the-art") is a compound.
const HYPHENATED_BEFORE = /\p{L}[-\u2010]\p{L}+[-\u2010]$/u;

/**
 * Joins the lines of one paragraph. A hyphen that ends a line after a letter and is followed by a
 * lowercase letter (of any script with case) is taken for hyphenation and removed ("vir-" +
 * "tual" → "virtual", "эффек-" + "тивный"). It stays where the line-end part is a compound:
 * before a capital or a digit ("Trace-" + "Monkey", "IEEE-" + "754"), after a prefix English writes
 * with a hyphen ("self-" + "aware"), and in a word already hyphenated before the
 * break ("state-of-" + "the-art"). Other compounds that happen to break at their own hyphen lose
 * it, which costs less than keeping every typeset hyphen in the middle of words.
 */
export function joinLines(lines: readonly string[]): string {
  let out = '';
  for (const raw of lines) {
    const line = normalizeSpace(raw);
    if (!line) continue;
    if (!out) {
      out = line;
    } else if (SOFT_HYPHEN_END.test(out) || (BROKEN_WORD.test(out) && /^\p{Ll}/u.test(line) && !isCompound(out))) {
      out = out.slice(0, -1) + line;
    } else if (BROKEN_WORD.test(out) && /^[\p{L}\p{N}]/u.test(line)) {
      out += line; // a name or compound: keep its hyphen, drop the line break
    } else if (/[/\u2013\u2014]$/u.test(out)) {
      out += line; // "Terms/Definitions/" + "Acronyms": a break after a slash or dash adds no space
    } else {
      out += ' ' + line;
    }
  }
  return out.replace(/\u00ad/g, '');
}

const isCompound = (text: string) => COMPOUND_PREFIX.test(text.slice(-12)) || HYPHENATED_BEFORE.test(text.slice(-40));
