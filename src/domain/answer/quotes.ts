import { passageSentences } from './passage-sentences.ts';
import { normalisedWithOrigin } from './whitespace.ts';

/** The span of a cited chunk that the answer quotes or paraphrases: `text` is `chunk.slice(start, end)`. */
export type Quote = { text: string; start: number; end: number };

const CITED_RUN = /((?:\[\d+\])+)/g;
const LEAD = /^[\s.!?。！？,;:)\]]+/u;
const ELLIPSIS = /\s*(?:…|\.\.\.)\s*/u;
const WORD = /[\p{L}\p{N}]+/gu;
const TERMINAL = /^[.!?。！？]/u;
/** A paraphrase must share at least this share of its words with a sentence to be pinned on it. */
const MIN_OVERLAP = 0.5;

/**
 * For each passage the answer cites, the span of its chunk text the citing statement rests on:
 * the statement itself when it is a quotation (the offline model's answers are, cut by ellipses
 * at most), else the chunk's sentence that shares most of its words (a provider's paraphrase).
 * The first statement citing a passage decides its quote; statements that match nothing get none.
 */
export function quotesOf(answer: string, chunks: ReadonlyMap<number, string>): Map<number, Quote> {
  const quotes = new Map<number, Quote>();
  let from = 0;
  for (const match of answer.matchAll(CITED_RUN)) {
    const statement = answer.slice(from, match.index).replace(LEAD, '').replace(/\s*\[\d+\]/g, '').trim();
    from = match.index + match[0].length;
    for (const [, n] of match[0].matchAll(/\[(\d+)\]/g)) {
      const index = Number(n);
      const chunk = chunks.get(index);
      if (quotes.has(index) || chunk === undefined || !statement) continue;
      const quote = verbatimSpan(statement, chunk) ?? closestSentence(statement, chunk);
      if (quote) quotes.set(index, quote);
    }
  }
  return quotes;
}

/** Where the statement's pieces (between ellipses) sit in the chunk, in order, white space aside. */
function verbatimSpan(statement: string, chunk: string): Quote | null {
  const { normal, origin } = normalisedWithOrigin(chunk);
  const pieces = statement.split(ELLIPSIS).map((p) => p.replace(/\s+/g, ' ').trim()).filter(Boolean);
  let start = -1;
  let end = -1;
  let at = 0;
  for (const piece of pieces) {
    const found = normal.indexOf(piece, at);
    if (found < 0) return null;
    if (start < 0) start = origin[found]!;
    end = origin[found + piece.length - 1]! + 1;
    at = found + piece.length;
  }
  if (start < 0) return null;
  // The answer puts its marker before the sentence's full stop; the quote keeps the stop.
  if (TERMINAL.test(chunk.slice(end, end + 1))) end++;
  return { text: chunk.slice(start, end), start, end };
}

function closestSentence(statement: string, chunk: string): Quote | null {
  const wanted = new Set(statement.toLowerCase().match(WORD) ?? []);
  if (wanted.size === 0) return null;
  let best: Quote | null = null;
  let bestShare = MIN_OVERLAP;
  for (const sentence of passageSentences([{ index: 0, text: chunk }])) {
    const words = new Set(sentence.text.toLowerCase().match(WORD) ?? []);
    let shared = 0;
    for (const w of wanted) if (words.has(w)) shared++;
    const share = shared / wanted.size;
    if (share > bestShare) [best, bestShare] = [{ text: chunk.slice(sentence.start, sentence.end), start: sentence.start, end: sentence.end }, share];
  }
  return best;
}
