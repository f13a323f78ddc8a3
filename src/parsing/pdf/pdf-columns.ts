import { toSegment, type Segment } from './pdf-segments.ts';
import { gutters, type Gutter } from './pdf-gutters.ts';
import { median } from './pdf-stats.ts';

/**
 * Reading order of a page: split it into regions that each hold one column of text, in the order
 * a reader takes them. A recursive cut on vertical gutters (an XY-cut without the horizontal cuts
 * that would slice a two-column body into interleaved strips):
 *  - a gutter no segment crosses, with text columns on both sides: left region, then right;
 *  - a gutter crossed only by a few wide segments (a title, a full-width caption): the wide
 *    segments cut the page into bands, read top to bottom, each band split again;
 *  - a narrow column of short labels beside prose (side headings, as in manuals): each label
 *    is read just before the prose that starts beside it.
 * Table columns are gutters too; they are not cut because their cells are not running text.
 */

/** Segments read together; a label region is a side heading read before the prose beside it. */
export type Region = { segments: Segment[]; label: boolean };

type Cut = { kind: 'columns' | 'notes'; left: Segment[]; right: Segment[]; crossing: Segment[]; all: Segment[] };

const MAX_DEPTH = 12;
/** A segment with this many words is a line of running text rather than a label or a cell. */
const PROSE_WORDS = 4;

export function readingOrder(segments: readonly Segment[]): Region[] {
  return cut([...segments], 0).filter((region) => region.segments.length > 0);
}

function cut(node: Segment[], depth: number): Region[] {
  const leaf = [{ segments: node, label: false }];
  if (node.length < 4 || depth > MAX_DEPTH) return leaf;
  const found = findCut(node);
  if (!found) return leaf;
  if (found.crossing.length) {
    const parts = bands(found.all, found.crossing);
    // A band may not shrink (every segment sits on a wide one's rows): stop rather than loop.
    return parts.length > 1 ? parts.flatMap((band) => cut(band, depth + 1)) : leaf;
  }
  if (found.kind === 'columns') return [...cut(found.left, depth + 1), ...cut(found.right, depth + 1)];
  return labelBands(found.left, found.right).flatMap(([labels, prose]) => [{ segments: labels, label: true }, ...cut(prose, depth + 1)]);
}

/** Gutters where few segments cross, widest first; a clean one wins over one with crossings. */
function findCut(node: Segment[]): Cut | undefined {
  const x0 = Math.min(...node.map((s) => s.x0));
  const x1 = Math.max(...node.map((s) => s.x1));
  const minGutter = Math.max(3, 0.8 * median(node.map((s) => s.size)));
  const maxCrossing = Math.floor(node.length * 0.3);
  const candidates = gutters(node, maxCrossing, minGutter).filter((g) => g.start > x0 && g.end < x1);
  candidates.sort((a, b) => a.count - b.count || b.end - b.start - (a.end - a.start));
  for (const gutter of candidates) {
    // Lines of two columns that stand close may have become one segment: cut it at the gutter.
    const pieces = node.flatMap((s) => (s.x0 < gutter.end && s.x1 > gutter.start ? splitAtGutter(s, gutter) : [s]));
    const mid = (gutter.start + gutter.end) / 2;
    const crossing = pieces.filter((s) => s.x0 < gutter.start && s.x1 > gutter.end);
    const wide = new Set(crossing);
    const rest = pieces.filter((s) => !wide.has(s));
    const left = rest.filter((s) => (s.x0 + s.x1) / 2 < mid);
    const right = rest.filter((s) => (s.x0 + s.x1) / 2 >= mid);
    const kind = classify(left, right, x1 - x0);
    if (!kind) continue;
    // Crossing segments only make bands for text columns: side labels never have them.
    if (crossing.length && kind !== 'columns') continue;
    return { kind, left, right, crossing, all: pieces };
  }
  return undefined;
}

function classify(left: Segment[], right: Segment[], width: number): Cut['kind'] | undefined {
  if (!left.length || !right.length) return undefined;
  const l = sideStats(left);
  const r = sideStats(right);
  const wide = l.width >= 0.15 * width && r.width >= 0.15 * width;
  if (wide && l.prose >= 0.5 && r.prose >= 0.5 && l.proseLines >= 2 && r.proseLines >= 2) return 'columns';
  if (l.width <= 0.35 * width && l.prose < 0.5 && r.prose >= 0.6 && r.proseLines >= 3 && right.length > left.length) return 'notes';
  return undefined;
}

/**
 * A column of text holds most of its characters in lines of several words; a table column, a
 * column of labels, a figure's annotations or code (fixed-pitch) do not.
 */
function sideStats(side: Segment[]) {
  const x0 = Math.min(...side.map((s) => s.x0));
  const x1 = Math.max(...side.map((s) => s.x1));
  const lines = side.filter((s) => s.words >= PROSE_WORDS && !s.mono);
  const chars = (segs: Segment[]) => segs.reduce((n, s) => n + s.text.length, 0);
  return { width: x1 - x0, prose: chars(lines) / Math.max(1, chars(side)), proseLines: lines.length };
}

/** Splits a segment where a clear gap between two of its runs falls in the gutter. */
function splitAtGutter(seg: Segment, gutter: Gutter): Segment[] {
  const items = seg.items;
  for (let i = 1; i < items.length; i++) {
    const gap = items[i]!.x0 - items[i - 1]!.x1;
    if (gap >= 0.6 * seg.size && items[i - 1]!.x1 <= gutter.end && items[i]!.x0 >= gutter.start) {
      return [toSegment(items.slice(0, i)), toSegment(items.slice(i))];
    }
  }
  return [seg];
}

/**
 * Horizontal bands around the wide segments: each run of wide segments (with whatever else
 * sits on their rows) is one band, and so is the stretch between two runs.
 */
function bands(node: Segment[], crossing: Segment[]): Segment[][] {
  const strips: { top: number; bottom: number }[] = [];
  for (const seg of [...crossing].sort((a, b) => a.top - b.top)) {
    const last = strips[strips.length - 1];
    if (last && seg.top - last.bottom < seg.size) last.bottom = Math.max(last.bottom, seg.bottom);
    else strips.push({ top: seg.top, bottom: seg.bottom });
  }
  // Band 2k+1 is strip k; band 2k is the stretch above it.
  const out: Segment[][] = Array.from({ length: 2 * strips.length + 1 }, () => []);
  for (const seg of node) {
    const mid = (seg.top + seg.bottom) / 2;
    let index = 2 * strips.length;
    for (let k = 0; k < strips.length; k++) {
      if (mid < strips[k]!.top) {
        index = 2 * k;
        break;
      }
      if (mid <= strips[k]!.bottom) {
        index = 2 * k + 1;
        break;
      }
    }
    out[index]!.push(seg);
  }
  return out.filter((band) => band.length);
}

/** Groups side labels into blocks; each block is read with the prose that starts beside it. */
function labelBands(labels: Segment[], prose: Segment[]): [Segment[], Segment[]][] {
  const sortedLabels = [...labels].sort((a, b) => a.top - b.top);
  const groups: Segment[][] = [];
  for (const seg of sortedLabels) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    if (group && last && seg.top - last.bottom < seg.size) group.push(seg);
    else groups.push([seg]);
  }
  const out: [Segment[], Segment[]][] = [[[], []], ...groups.map((g): [Segment[], Segment[]] => [g, []])];
  for (const seg of [...prose].sort((a, b) => a.top - b.top)) {
    let index = 0;
    groups.forEach((g, i) => {
      if (g[0]!.top <= seg.top + 0.5 * seg.size) index = i + 1;
    });
    out[index]![1].push(seg);
  }
  return out.filter(([l, p]) => l.length || p.length);
}
