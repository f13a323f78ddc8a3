import { stemmer } from 'stemmer';
import { boundedMemo } from '../shared/bounded-memo.ts';

/**
 * NLTK's English stop list, less "t" (as in T cells). On SciFact the list hardly matters to
 * quality (nDCG@10 0.6987 with none, 0.6990 with Lucene's 33 words, 0.7017 with this one: BM25's
 * idf already discounts common words), so the longer list wins on what it saves: postings of
 * function words that claims are full of and that every query would otherwise walk.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
    'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
    'been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
    'about against between into through during before after above below to from up down in out on off over under again ' +
    'further then once here there when where why how all any both each few more most other some such no nor not only ' +
    'own same so than too very s can will just don should now'
  ).split(' '),
);

/** Longer "words" are base64, hashes or URLs run together: never what someone types to find a passage. */
const MAX_TERM_LENGTH = 64;

const ASCII = /^[\x00-\x7f]*$/;
/** Accents on the alphabets whose readers type without them; the vowel signs of Indic scripts, say, are letters and stay. */
const ACCENTS = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const MARK_CHAR = /^\p{M}$/u;
const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;

const OTHER = 0;
const WORD = 1;
const CJK = 2;
/** A combining mark: part of whatever run it follows, a separator on its own (an emoji's variation selector). */
const MARK = 3;
/** Classes of the Basic Multilingual Plane, filled on first sight, so the Unicode regexes run once per character seen. */
const bmpClass = new Uint8Array(0x10000);
const KNOWN = 4;

function classOf(code: number): number {
  if (code < 0x80) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) ? WORD : OTHER;
  if (code < 0x10000) {
    let c = bmpClass[code]!;
    if (c === 0) bmpClass[code] = c = KNOWN | classify(String.fromCharCode(code));
    return c & 3;
  }
  return classify(String.fromCodePoint(code));
}

const classify = (char: string) => (CJK_CHAR.test(char) ? CJK : WORD_CHAR.test(char) ? WORD : MARK_CHAR.test(char) ? MARK : OTHER);

/**
 * Porter (1980) for a word of three or more letters a–z; any other word (digits, accents, other
 * scripts) stays whole. Stemming is the costly step of indexing and vocabularies repeat, so stems
 * are remembered (bounded).
 */
export const stem = boundedMemo((word) => (isStemmable(word) ? stemmer(word) : word), 200_000);

/** Word → term, or null for a stop word. */
const termOf = (word: string): string | null => (STOP_WORDS.has(word) ? null : stem(word));

function isStemmable(word: string) {
  if (word.length < 3) return false;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/** Case and accents folded, so "Café" and "cafe" meet; everything else is recomposed (Hangul, kana). */
function fold(text: string): string {
  const lower = text.toLowerCase();
  return ASCII.test(lower) ? lower : lower.normalize('NFKD').replace(ACCENTS, '$1').normalize('NFC');
}

/**
 * Calls `visit` with the index terms of a text, in order, repeats included: folded, split on
 * anything but letters and digits, stop words dropped, Porter-stemmed. A run of Chinese or
 * Japanese script becomes overlapping character bigrams, the usual way to match words written
 * without spaces. Never throws: any string, however hostile, is just characters to split. A
 * hand-written scan, because with a Unicode regex tokenising alone took most of the indexing budget.
 */
export function forEachTerm(text: string, visit: (term: string) => void): void {
  const folded = fold(text);
  let start = 0;
  let kind = OTHER;
  for (let i = 0; i <= folded.length; ) {
    const code = i < folded.length ? folded.codePointAt(i)! : 0;
    let c = i < folded.length ? classOf(code) : OTHER;
    if (c === MARK) c = kind;
    if (c !== kind) {
      if (kind === WORD && i - start <= MAX_TERM_LENGTH) {
        const term = termOf(folded.slice(start, i));
        if (term !== null) visit(term);
      } else if (kind === CJK) {
        bigrams(folded.slice(start, i), visit);
      }
      start = i;
      kind = c;
    }
    i += code > 0xffff ? 2 : 1;
  }
}

function bigrams(run: string, visit: (term: string) => void) {
  const chars = [...run];
  if (chars.length === 1) visit(chars[0]!);
  for (let i = 0; i + 1 < chars.length; i++) visit(chars[i]! + chars[i + 1]!);
}

export function analyze(text: string): string[] {
  const out: string[] = [];
  forEachTerm(text, (t) => out.push(t));
  return out;
}

/** A text's terms with their frequencies, and how many terms it has (its BM25 length). */
export function termFrequencies(text: string): { tf: Map<string, number>; length: number } {
  const tf = new Map<string, number>();
  let length = 0;
  forEachTerm(text, (t) => {
    tf.set(t, (tf.get(t) ?? 0) + 1);
    length++;
  });
  return { tf, length };
}

/** A query's distinct terms, in the order they first appear. */
export const queryTerms = (text: string): string[] => [...new Set(analyze(text))];
