import type { PageBlock } from './pdf-page-block.ts';
import type { Line } from './pdf-rows.ts';
import { MARKER_PATTERN } from './pdf-segments.ts';
import { median, weightedMode } from './pdf-stats.ts';
import { joinLines } from '../language/text-join.ts';

/**
 * Lines of one region into paragraphs and list items. A new block starts where the text shows
 * a reader one: extra space above, a change of font size, a first-line indent, a short line
 * ending a sentence above, a short line in another font (a run-in bold title), or a list marker.
 */

const MARKER = new RegExp(`^${MARKER_PATTERN}\\s+(?=\\S)`, 'u');
const SENTENCE_END = /[.!?:]["'”’)\]]?$/u;
const CAPTION = /^(?:fig(?:ure)?\.?|table|tab\.|exhibit|chart)\s*[\dIVX]+[a-z]?\s*[.:]/i;

type Draft = { kind: 'paragraph' | 'list_item' | 'code'; lines: Line[]; marker?: Line; level?: number };

export function paragraphs(lines: readonly Line[]): PageBlock[] {
  if (!lines.length) return [];
  const body = lines.filter((l) => l.text.split(/\s+/).length >= 3);
  const left = Math.min(...(body.length ? body : lines).map((l) => l.x0));
  const right = Math.max(...(body.length ? body : lines).map((l) => l.x1));
  const pitch = pitchRatio(lines);
  const levels = markerLevels(lines);
  const drafts: Draft[] = [];
  let prev: Line | undefined;
  for (const line of lines) {
    const current = drafts[drafts.length - 1];
    const marker = MARKER.exec(line.text);
    if (line.mono) {
      if (current?.kind === 'code' && prev && line.y - prev.y < 2.5 * line.size) current.lines.push(line);
      else drafts.push({ kind: 'code', lines: [line] });
    } else if (marker) {
      drafts.push({ kind: 'list_item', lines: [line], marker: line, level: levels.get(Math.round(line.x0)) ?? 0 });
    } else if (!current || !prev || current.kind === 'code' || startsNew(prev, line, current, { left, right, pitch })) {
      drafts.push({ kind: 'paragraph', lines: [line] });
    } else {
      current.lines.push(line);
    }
    prev = line;
  }
  return drafts.map(toBlock);
}

function startsNew(prev: Line, line: Line, current: Draft, frame: { left: number; right: number; pitch: number }): boolean {
  const em = Math.max(prev.size, line.size);
  const delta = line.y - prev.y;
  if (delta < 0.3 * em || delta > frame.pitch * em * 1.35) return true;
  if (Math.abs(prev.size - line.size) > 0.1 * em) return true;
  const prevShort = prev.x1 < frame.right - Math.max(4 * em, 0.2 * (frame.right - frame.left));
  if (current.kind === 'list_item') {
    // Continuation lines of an item hang under its text, or run on from a full line.
    const hangs = line.x0 > current.marker!.x0 + 0.3 * em;
    return !(hangs || (!prevShort && Math.abs(line.x0 - current.marker!.x0) < 0.3 * em));
  }
  // A first-line indent after a paragraph's last line; not the indented continuation of a
  // hanging-indent entry (a reference, a glossary term), whose first line runs full.
  const indent = line.x0 - frame.left;
  const ended = prevShort || SENTENCE_END.test(prev.text);
  if (indent > 0.8 * em && indent < 6 * em && prev.x0 - frame.left < 0.5 * em && ended) return true;
  // Back out to where an entry with indented continuation lines began: the next entry.
  const first = current.lines[0]!;
  if (current.lines.length >= 2 && prev.x0 > first.x0 + 0.8 * em && Math.abs(line.x0 - first.x0) < 0.5 * em) return true;
  if (prevShort && SENTENCE_END.test(prev.text)) return true;
  if (prev.font !== line.font && prevShort && !/[-,]$/.test(prev.text)) return true;
  return false;
}

/**
 * The usual baseline-to-baseline distance in font sizes, measured on lines of the region's main
 * size (figure labels and footnotes have their own spacing).
 */
function pitchRatio(lines: readonly Line[]): number {
  const main = weightedMode(lines.map((l) => [Math.round(l.size * 2), l.text.length] as const));
  const ratios: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1]!;
    const b = lines[i]!;
    if (Math.round(a.size * 2) !== main || Math.round(b.size * 2) !== main) continue;
    const r = (b.y - a.y) / a.size;
    if (r > 0.9 && r < 2) ratios.push(r);
  }
  return ratios.length ? median(ratios) : 1.25;
}

/** Nesting depth of list markers by indentation: the leftmost markers are level 0. */
function markerLevels(lines: readonly Line[]): Map<number, number> {
  const xs = [...new Set(lines.filter((l) => MARKER.test(l.text)).map((l) => Math.round(l.x0)))].sort((a, b) => a - b);
  const levels = new Map<number, number>();
  let level = -1;
  let last = -Infinity;
  for (const x of xs) {
    if (x - last > 6) level++;
    levels.set(x, level);
    last = x;
  }
  return levels;
}

function toBlock(draft: Draft): PageBlock {
  const main = draft.lines.reduce((a, b) => (b.text.length > a.text.length ? b : a));
  const typography = { size: Math.max(...draft.lines.map((l) => l.size)), font: main.font, lines: draft.lines.length, boxes: draft.lines.map(lineBox) };
  if (draft.kind === 'code') return { kind: 'code', text: codeText(draft.lines), ...typography };
  let text = joinLines(draft.lines.map((l) => l.text));
  // A bullet glyph carries no meaning once the block is marked as a list item; "(1)" does.
  const marker = draft.kind === 'list_item' ? MARKER.exec(text) : null;
  if (marker?.[1]) text = text.slice(marker[0].length);
  if (draft.kind === 'list_item') return { kind: 'list_item', text, level: draft.level ?? 0, ...typography };
  return { kind: CAPTION.test(text) ? 'caption' : 'paragraph', text, ...typography };
}

export const lineBox = (line: Line) => ({ x0: line.x0, y0: line.top, x1: line.x1, y1: line.bottom, text: line.text });

/** Code keeps its lines, and its indentation as far as the fixed pitch lets us count spaces. */
function codeText(lines: Line[]): string {
  const left = Math.min(...lines.map((l) => l.x0));
  return lines.map((l) => ' '.repeat(Math.min(40, Math.round((l.x0 - left) / (0.6 * l.size)))) + l.text).join('\n');
}
