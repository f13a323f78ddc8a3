import type { TextItem } from './pdf-items.ts';

/**
 * Text runs grouped into segments: pieces of one visual line with no wide gap inside. A gap
 * wider than about an em separates columns, table cells or a label from its text, so it ends a
 * segment; deciding what the pieces are is left to the layout steps after this one.
 */

/** Text placed on the page: its box, baseline and typography. */
export type TextBox = {
  text: string;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** Baseline and size of the run holding most of the characters (not a superscript). */
  y: number;
  size: number;
  font: string;
  /** Set in a fixed-pitch font. */
  mono: boolean;
};

export type Segment = TextBox & {
  /** The runs it is made of, left to right (a table may split a segment between its columns). */
  items: TextItem[];
  /** Whitespace-separated tokens; CJK text without spaces counts two characters as a word. */
  words: number;
};

/** A gap wider than this many font sizes splits a line into segments. */
const SPLIT_GAP_EM = 1.0;
/** A gap wider than this many font sizes is a word space even when pdf.js did not emit one. */
const SPACE_GAP_EM = 0.2;

const boxTop = (it: TextItem) => it.y - 0.8 * it.size;
const boxBottom = (it: TextItem) => it.y + 0.2 * it.size;

export function buildSegments(items: readonly TextItem[]): Segment[] {
  const segments: Segment[] = [];
  for (const row of groupRows(items)) {
    row.sort((a, b) => a.x0 - b.x0);
    let run: TextItem[] = [];
    let end = 0;
    for (const item of row) {
      const wide = item.x0 - end > SPLIT_GAP_EM * Math.max(item.size, run[run.length - 1]?.size ?? 0);
      // A bullet or "(1)" set apart by a tab still belongs to the text it introduces.
      if (run.length && wide && !(isMarker(run) && item.x0 - end < MARKER_GAP_EM * item.size)) {
        segments.push(toSegment(run));
        run = [];
      }
      if (isDuplicate(run[run.length - 1], item)) continue;
      end = run.length ? Math.max(end, item.x1) : item.x1;
      run.push(item);
    }
    if (run.length) segments.push(toSegment(run));
  }
  return segments;
}

/**
 * Items whose boxes overlap vertically by half the smaller height share a row. Sorting by
 * baseline and comparing with the row's core (its largest run) keeps superscripts and footnote
 * marks on their line without letting rows grow into their neighbours.
 */
function groupRows(items: readonly TextItem[]): TextItem[][] {
  const sorted = [...items].sort((a, b) => a.y - b.y);
  const rows: { core: TextItem; items: TextItem[] }[] = [];
  for (const item of sorted) {
    let best: (typeof rows)[number] | undefined;
    let bestRatio = 0.5;
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i]!;
      if (boxBottom(row.core) < boxTop(item) - 2 * item.size) break;
      const overlap = Math.min(boxBottom(row.core), boxBottom(item)) - Math.max(boxTop(row.core), boxTop(item));
      const ratio = overlap / Math.min(row.core.size, item.size);
      if (ratio >= bestRatio) {
        best = row;
        bestRatio = ratio;
      }
    }
    if (!best) rows.push({ core: item, items: [item] });
    else {
      best.items.push(item);
      if (item.size > best.core.size * 1.05) best.core = item;
    }
  }
  return rows.map((r) => r.items);
}

/** List markers: a bullet (group 1) or an enumerator such as "1.", "(a)", "iv)" (group 2). */
export const MARKER_PATTERN = '(?:([•●○◦▪▫■□‣⁃∙·*–—-])|(\\(?(?:\\d{1,3}|[a-zA-Z]|[ivxIVX]{1,5})[.)]))';
const LIST_MARKER = new RegExp(`^${MARKER_PATTERN}$`, 'u');
/** How far a list marker may stand from its text. */
const MARKER_GAP_EM = 3;

const isMarker = (run: TextItem[]) => LIST_MARKER.test(run.map((i) => i.text).join(''));

/** Fake bold: the same run painted twice, a hair apart. */
const isDuplicate = (prev: TextItem | undefined, item: TextItem) =>
  !!prev && prev.text === item.text && Math.abs(prev.x0 - item.x0) < 0.2 * item.size && Math.abs(prev.y - item.y) < 0.2 * item.size;

/** Joins runs of one line, left to right, into a segment. */
export function toSegment(run: TextItem[]): Segment {
  let text = '';
  let main = run[0]!;
  let prev: TextItem | undefined;
  for (const item of run) {
    if (prev) {
      const gap = item.x0 - prev.x1;
      const space = prev.spaceAfter || item.spaceBefore || gap > SPACE_GAP_EM * Math.min(prev.size, item.size);
      if (space && !text.endsWith(' ')) text += ' ';
    }
    text += item.text;
    if (item.text.length * item.size > main.text.length * main.size) main = item;
    prev = item;
  }
  const cjk = (text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu) ?? []).length;
  return {
    items: run,
    text,
    x0: Math.min(...run.map((i) => i.x0)),
    x1: Math.max(...run.map((i) => i.x1)),
    top: Math.min(...run.map(boxTop)),
    bottom: Math.max(...run.map(boxBottom)),
    y: main.y,
    size: main.size,
    font: main.font,
    mono: main.mono,
    words: text.split(/\s+/).filter(Boolean).length + Math.floor(cjk / 2),
  };
}
