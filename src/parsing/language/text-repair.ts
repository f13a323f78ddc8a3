/**
 * Repairs for text as extractors hand it over, before it is compared or embedded: typographic
 * ligatures back into letters, accents that TeX set as separate glyphs back onto their letters,
 * and the known wrong characters that fonts without a usable ToUnicode map produce.
 *
 * Not a blanket NFKC: that would also turn "m²" into "m2", "½" into "1⁄2" and "™" into "TM",
 * which change what a knowledge base says. Only the compatibility characters that are pure
 * typography get their NFKC form: Latin and Armenian ligatures (U+FB00–FB17) and full-width
 * ASCII letters and digits. The rest is NFC.
 */

const TYPOGRAPHIC = /[\uFB00-\uFB06\uFB13-\uFB17\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]/gu;

/**
 * A broken map's wrong character, inside a word only. LaTeX's Computer Modern fonts put the ff
 * ligature where pdftotext and some pdf.js builds read U+21B5 "↵" ("e↵orts"). The pdf.js we run
 * reads tracemonkey.pdf right; the repair is for layers made by other tools (OCR'd or converted
 * PDFs carry them) and DOCX/HTML pasted from such text. Control characters are not mapped back to
 * OT1's ligature slots: in subset fonts without a map (TAMReview.pdf) codes 1-31 are ordinary
 * letters in no fixed order, so such pages are left to the garbled-layer check and OCR.
 */
const FF_IN_WORD = /(?<=\p{L})\u21B5(?=\p{L})/gu;

/**
 * TeX draws an accent as a glyph of its own before the letter ("na¨ıve", "Andr´e"); pdf.js
 * hands both over as they are. Each spacing accent maps to its combining form.
 */
const COMBINING: Readonly<Record<string, string>> = {
  '\u00A8': '\u0308', // ¨
  '\u00B4': '\u0301', // ´
  '\u02C6': '\u0302', // ˆ
  '\u02DC': '\u0303', // ˜
  '\u02C7': '\u030C', // ˇ
  '\u02DA': '\u030A', // ˚
  '\u00B8': '\u0327', // ¸
};
const SPACING_ACCENT = /[\u00A8\u00B4\u02C6\u02DC\u02C7\u02DA\u00B8](\p{L})/gu;

export function repairText(text: string): string {
  // ASCII text, the common case, has nothing any of the repairs below could change.
  if (!/[^\u0000-\u007F]/.test(text)) return text;
  return text
    .replace(FF_IN_WORD, 'ff')
    .replace(TYPOGRAPHIC, (c) => c.normalize('NFKC'))
    .replace(SPACING_ACCENT, composeAccent)
    .normalize('NFC');
}

/**
 * Only where the accent and the letter make one precomposed character: "´" before "t" in
 * "don´t" is an apostrophe, and stays one.
 */
function composeAccent(match: string, letter: string): string {
  // TeX puts accents over a dotless i or j.
  const base = letter === 'ı' ? 'i' : letter === 'ȷ' ? 'j' : letter;
  const composed = (base + COMBINING[match[0]!]!).normalize('NFC');
  return [...composed].length === 1 ? composed : match;
}

/**
 * Characters that have no business inside a word: arrows, private-use code points, the
 * replacement character, control characters. A word holding one is what a broken glyph map leaves.
 */
const BROKEN_GLYPH = /\p{L}[\u2190-\u21FF\uE000-\uF8FF\uFFFD\u0000-\u0008\u000B-\u001F]|[\u2190-\u21FF\uE000-\uF8FF\uFFFD\u0000-\u0008\u000B-\u001F]\p{L}/u;

/** Words of the text that hold a character a broken glyph map produced. */
export function brokenGlyphWords(text: string): string[] {
  return text.split(/\s+/).filter((word) => BROKEN_GLYPH.test(word));
}
