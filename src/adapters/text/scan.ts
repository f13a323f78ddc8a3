/** A run of letters and digits, delimited by anything else. */
export const WORD = 1;
/**
 * A run of a script written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar), or of Hangul,
 * whose space-separated words carry their particles ("유효기간은"): a segmenter or pairs split it.
 */
export const UNSPACED = 2;

const OTHER = 0;
/** A combining mark: part of whatever run it follows, a separator on its own (an emoji's variation selector). */
const MARK = 3;
const KNOWN = 4;

const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const MARK_CHAR = /^\p{M}$/u;
const UNSPACED_CHAR = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]$/u;

/** Classes of the Basic Multilingual Plane, filled on first sight, so the Unicode regexes run once per character seen. */
const bmpClass = new Uint8Array(0x10000);

function classOf(code: number): number {
  if (code < 0x80) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) ? WORD : OTHER;
  if (code < 0x10000) {
    let c = bmpClass[code]!;
    if (c === 0) bmpClass[code] = c = KNOWN | classify(String.fromCharCode(code));
    return c & 3;
  }
  return classify(String.fromCodePoint(code));
}

const classify = (char: string) => (UNSPACED_CHAR.test(char) ? UNSPACED : WORD_CHAR.test(char) ? WORD : MARK_CHAR.test(char) ? MARK : OTHER);

/**
 * Calls `visit` with each run of word characters of the ORIGINAL text, in order: its start, end
 * (UTF-16 offsets) and kind. Classes come from the characters as written: compatibility forms
 * (full-width letters, ligatures, superscripts) are letters and digits already, so runs found
 * here are the words NFKC would give, with offsets that need no mapping back. A lone surrogate
 * is no letter, just a separator. A hand-written scan, because with a Unicode regex tokenising
 * alone took most of the indexing budget.
 */
export function scanRuns(text: string, visit: (start: number, end: number, kind: number) => void): void {
  let start = 0;
  let kind = OTHER;
  const n = text.length;
  for (let i = 0; i <= n; ) {
    const code = i < n ? text.codePointAt(i)! : 0;
    let c = i < n ? classOf(code) : OTHER;
    if (c === MARK) c = kind;
    if (c !== kind) {
      if (kind !== OTHER) visit(start, i, kind);
      start = i;
      kind = c;
    }
    i += code > 0xffff ? 2 : 1;
  }
}
