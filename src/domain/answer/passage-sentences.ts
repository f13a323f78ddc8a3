import type { ContextPassage } from '../chat/messages.ts';
import { sentenceEnds } from './sentence-breaks.ts';
import { splitTableRows } from './table-rows.ts';
import { normalisedWithOrigin } from './whitespace.ts';

/**
 * A unit of a retrieved passage an answer may quote: a sentence, a list item, a heading or a table
 * row. `text` is whitespace-normalised but otherwise as written; `start`/`end` are where it sits
 * in the passage's text, so a citation can point at exactly what was quoted.
 */
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
  /** A Markdown heading, or the heading path retrieval put above the chunk: it names what follows, it does not answer. */
  heading: boolean;
  start: number;
  end: number;
};

/** Lines that stand on their own even without end punctuation: list items, table lines, headings. */
const LIST_OR_HEADING = /^(?:[-*•·▪‣◦]|\(?\d{1,3}[.)]\s|\(?[a-z][.)]\s|\||#{1,6}\s)/u;
/** A table line: cells between pipes or tabs, or a dot-leader row ("Levomoramide ........ 9629"). */
const TABLE_LINE = /\|.*\||\t|(?:\.\s?){4,}\s*\S+\s*$/u;
const BULLET = /^(?:[-*•·▪‣◦]|#{1,6})\s+/u;

type Range = { start: number; end: number };
type Segment = Range & { heading: boolean };

export function passageSentences(passages: readonly ContextPassage[]): PassageSentence[] {
  const sentences: PassageSentence[] = [];
  passages.forEach((passage, passageRank) => {
    let position = 0;
    for (const segment of segments(passage.text, passage.headingEnd ?? 0)) {
      const table = TABLE_LINE.test(passage.text.slice(segment.start, segment.end));
      for (const unit of segmentUnits(passage.text, segment, table)) {
        sentences.push({ ...unit, heading: segment.heading, citation: passage.index, passageRank, position: position++ });
      }
    }
  });
  return sentences;
}

/** One segment's units: its sentences, and the rows of a table the chunker ran together. */
function segmentUnits(text: string, segment: Range, table: boolean): { text: string; tableRow: boolean; start: number; end: number }[] {
  const bullet = BULLET.exec(text.slice(segment.start, segment.end));
  const { normal, origin } = normalisedWithOrigin(text, segment.start + (bullet?.[0].length ?? 0), segment.end);
  const units = [];
  const pieces = table ? [{ start: 0, end: normal.length }] : sentenceRanges(normal);
  for (const piece of pieces) {
    const rows = splitTableRows(normal.slice(piece.start, piece.end));
    for (const row of rows) {
      const s = piece.start + row.start;
      const e = piece.start + row.end;
      units.push({ text: normal.slice(s, e), tableRow: table || rows.length > 1, start: origin[s]!, end: origin[e - 1]! + 1 });
    }
  }
  return units;
}

function sentenceRanges(text: string): Range[] {
  const ranges: Range[] = [];
  let start = 0;
  for (const end of [...sentenceEnds(text), text.length]) {
    const piece = trimmed(text, start, end);
    if (piece) ranges.push(piece);
    start = end;
  }
  return ranges;
}

function trimmed(text: string, start: number, end: number): Range | null {
  while (start < end && /\s/u.test(text[start]!)) start++;
  while (end > start && /\s/u.test(text[end - 1]!)) end--;
  return end > start ? { start, end } : null;
}

/**
 * Runs of lines that read as one: a blank line, a list item, a table line, the heading path above
 * `headingEnd` or a heading (a short line with no end punctuation before a capitalised one) ends
 * a run; other line breaks wrap a paragraph.
 */
function segments(text: string, headingEnd: number): Segment[] {
  const out: Segment[] = [];
  let current: Range | null = null;
  let isHeading = false;
  const flush = () => {
    if (current) out.push({ ...current, heading: isHeading });
    current = null;
    isHeading = false;
  };
  const lines: Range[] = [];
  let at = 0;
  for (const line of text.split('\n')) {
    lines.push({ start: at, end: at + line.length });
    at += line.length + 1;
  }
  lines.forEach((range, i) => {
    const line = text.slice(range.start, range.end).trim();
    if (!line) return flush();
    const next = lines[i + 1] ? text.slice(lines[i + 1]!.start, lines[i + 1]!.end).trim() : '';
    const alone = (l: string) => LIST_OR_HEADING.test(l) || TABLE_LINE.test(l);
    if (alone(line)) flush();
    const opening = current === null;
    current = current ? { start: current.start, end: range.end } : { ...range };
    const heading = opening && !/[.!?:;,。！？]$/u.test(line) && line.split(/\s+/).length <= 8 && /^\p{Lu}/u.test(next);
    // The heading path retrieval put above the chunk ends a segment of its own, whatever follows it.
    const headingPath = range.end < headingEnd;
    if (headingPath || (opening && /^#{1,6}\s/u.test(line))) isHeading = true;
    if (heading || headingPath || alone(next) || alone(line)) flush();
  });
  flush();
  return out;
}
