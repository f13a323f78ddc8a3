import type { ContextPassage } from '../chat/messages.ts';
import { splitSentences } from '../document/sentences.ts';

/** A sentence of a retrieved passage, whitespace-normalised but otherwise as written. */
export type PassageSentence = {
  text: string;
  /** The passage's citation number. */
  citation: number;
  /** The passage's place in the retrieval order, 0 = most relevant. */
  passageRank: number;
  /** The sentence's place in its passage. */
  position: number;
  /** A table row: it does not continue the row before it the way a sentence continues its neighbour. */
  tableRow: boolean;
};

/**
 * Lines that stand on their own even without end punctuation: list items, table lines, headings
 * (a short line with no full stop before a capital). Other line breaks wrap a paragraph.
 */
const LINE_ON_ITS_OWN = /^(?:[-*•·▪‣◦]|\d{1,3}[.)]\s|\||#{1,6}\s)/;

export function passageSentences(passages: readonly ContextPassage[]): PassageSentence[] {
  const sentences: PassageSentence[] = [];
  passages.forEach((passage, passageRank) => {
    let position = 0;
    for (const segment of segments(passage.text)) {
      // A bullet or a Markdown heading mark is layout, not part of what the line says.
      for (const sentence of splitSentences(segment.replace(/^(?:[-*•·▪‣◦]|#{1,6})\s+/, ''))) {
        const pieces = splitTableRows(sentence);
        for (const piece of pieces) sentences.push({ text: piece, citation: passage.index, passageRank, position: position++, tableRow: pieces.length > 1 });
      }
    }
  });
  return sentences;
}

function segments(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  const flush = () => {
    const joined = current.join(' ').replace(/\s+/g, ' ').trim();
    if (joined) out.push(joined);
    current = [];
  };
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return flush();
    const next = lines[i + 1]?.trim() ?? '';
    if (LINE_ON_ITS_OWN.test(line)) flush();
    current.push(line);
    const heading = current.length === 1 && !/[.!?:;,]$/.test(line) && line.split(/\s+/).length <= 8 && /^\p{Lu}/u.test(next);
    if (heading || LINE_ON_ITS_OWN.test(next) || LINE_ON_ITS_OWN.test(line)) flush();
  });
  flush();
  return out;
}

/**
 * The chunker joins table rows with a space and no full stop ("Region: West; Sales: 12 Region:
 * East; Sales: 9"), so a table reads as one endless sentence. Each row opens with the same first
 * column name; cutting before its every repeat gives the rows back (and whatever came before the
 * first row, such as a heading, as a piece of its own).
 */
function splitTableRows(sentence: string): string[] {
  const colon = sentence.indexOf(': ');
  if (colon < 1) return [sentence];
  const key = firstColumn(sentence.slice(0, colon).split(' '), sentence.slice(colon));
  if (!key) return [sentence];
  const marker = ` ${key}: `;
  const rows: string[] = [];
  let start = 0;
  const first = colon - key.length;
  if (first > 0) {
    rows.push(sentence.slice(0, first).trim());
    start = first;
  }
  for (let at = sentence.indexOf(marker, start); at !== -1; at = sentence.indexOf(marker, at + 1)) {
    rows.push(sentence.slice(start, at).trim());
    start = at + 1;
  }
  rows.push(sentence.slice(start).trim());
  return rows.filter(Boolean);
}

/**
 * The column name before the first colon: the longest run of words ending there that recurs as
 * often as its last word does ("Stanley Cups: 1 …", not just "Cups"), and not at all when it never
 * recurs (a colon in prose).
 */
function firstColumn(before: readonly string[], rest: string): string | undefined {
  let key: string | undefined;
  let count = 0;
  for (let n = 1; n <= Math.min(4, before.length); n++) {
    const candidate = before.slice(-n).join(' ');
    if (/[|;]/.test(candidate)) break;
    const repeats = rest.split(` ${candidate}: `).length - 1;
    if (repeats === 0 || (n > 1 && repeats < count)) break;
    [key, count] = [candidate, repeats];
  }
  return key;
}
