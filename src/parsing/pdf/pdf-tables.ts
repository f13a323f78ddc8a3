import { gutters, type Gutter } from './pdf-gutters.ts';
import type { Row } from './pdf-rows.ts';
import { toSegment, type Segment } from './pdf-segments.ts';
import { median } from './pdf-stats.ts';

/**
 * Tables in a region: runs of rows with several cells each. The column boundaries are the
 * gaps that (nearly) every row of the run leaves open, so a header whose labels sit too close
 * to be separate segments is still cut into its cells. A row that leaves the first column empty,
 * or has fewer cells and follows closely, continues the cells above it (a wrapped cell). Prose
 * is not a table even when a few lines have wide gaps: most cells must be short.
 */

export type Table = {
  /** Logical rows, one string per column ('' where a row has no cell). */
  rows: string[][];
  /** The fonts of the first row and of the rest: a bold header row differs. */
  firstRowFont: string;
  bodyFont: string;
  /** Each logical row's extent on the page, in points (the union of its segments, wrapped lines included). */
  rowBoxes: { x0: number; y0: number; x1: number; y1: number }[];
};

export type RegionPart = { kind: 'rows'; rows: Row[] } | { kind: 'table'; table: Table };

/** Rows further apart than this many font sizes do not belong to the same table. */
const MAX_ROW_GAP_EM = 2.2;
/** A row this close to the one above (in font sizes) may be a wrapped continuation of its cells. */
const WRAP_GAP_EM = 0.6;
/** Share of a run's rows that may cross a column boundary (a spanning header, a long cell). */
const CROSSING_ROWS = 0.25;

export function findTables(rows: readonly Row[]): RegionPart[] {
  const parts: RegionPart[] = [];
  let text: Row[] = [];
  for (let i = 0; i < rows.length; ) {
    const found = rows[i]!.cells.length >= 2 && !isCode(rows[i]!) ? growTable(rows, i) : undefined;
    if (found) {
      // The table may have claimed the row above as its header.
      if (found.start < i) text.pop();
      if (text.length) parts.push({ kind: 'rows', rows: text });
      text = [];
      parts.push({ kind: 'table', table: found.table });
      i = found.end;
    } else {
      text.push(rows[i]!);
      i++;
    }
  }
  if (text.length) parts.push({ kind: 'rows', rows: text });
  return parts;
}

/**
 * Word gaps of justified text are stretched alike: this close (in font sizes) they are one
 * stretch. Loose enough for OCR'd word boxes, whose edges wander by a few pixels.
 */
const JUSTIFIED_TOLERANCE_EM = 0.25;

/**
 * A short line of a narrow justified column: word gaps wider than an em (so the line falls
 * apart into segments), all of about the same width, between words. A few such lines one under
 * another line up like a grid; a table's gaps follow its columns' widths instead. The gaps are
 * taken between runs, inside segments too: on an OCR'd page some of a line's equal gaps come out
 * just under an em and some just over.
 */
function isJustifiedLine(row: Row): boolean {
  if (!row.cells.every((c) => /\p{L}/u.test(c.text))) return false;
  const items = row.cells.flatMap((c) => c.items);
  if (items.length < 3) return false;
  const gaps = items.slice(1).map((it, i) => it.x0 - items[i]!.x1);
  return Math.max(...gaps) - Math.min(...gaps) <= JUSTIFIED_TOLERANCE_EM * row.size;
}

/** Code with aligned comments looks like a grid but reads as lines. */
const isCode = (row: Row) => row.cells.every((c) => c.mono);
const near = (upper: Row, lower: Row, em: number) => lower.top - upper.bottom <= em * lower.size;

function growTable(rows: readonly Row[], start: number): { table: Table; start: number; end: number } | undefined {
  const end = runEnd(rows, start);
  const run = rows.slice(start, end);
  const multi = run.filter((r) => r.cells.length >= 2);
  if (multi.length < 2 || multi.every(isJustifiedLine)) return undefined;
  const em = median(run.map((r) => r.size));
  // The body rows set the columns: a header is often aligned differently (labels flush left over
  // right-aligned numbers) and would add boundaries of its own.
  const body = run.length >= 3 ? run.slice(1) : run;
  const spans = body.flatMap((r) => r.cells);
  const x0 = Math.min(...spans.map((s) => s.x0));
  const x1 = Math.max(...spans.map((s) => s.x1));
  const boundaries = gutters(spans, Math.floor(body.length * CROSSING_ROWS), 0.5 * em).filter((g) => g.start > x0 && g.end < x1);
  if (!boundaries.length) return undefined;

  let first = start;
  const above = rows[start - 1];
  if (above && !isCode(above) && near(above, run[0]!, 1.5) && above.cells[0]!.x0 >= x0 - em && fitsGrid(above, boundaries)) first--;

  const logical: { cells: string[][]; segments: Segment[] }[] = [];
  for (let i = first; i < end; i++) {
    const row = rows[i]!;
    const cells = splitRow(row, boundaries);
    const previous = logical[logical.length - 1];
    const continues = previous && (!cells[0] || (fill(cells) < cells.length && near(rows[i - 1]!, row, WRAP_GAP_EM)));
    if (continues) cells.forEach((text, col) => text && previous.cells[col]!.push(text));
    else logical.push({ cells: cells.map((c) => (c ? [c] : [])), segments: [] });
    logical[logical.length - 1]!.segments.push(...row.cells);
  }
  const table = logical.map((l) => l.cells.map((parts) => parts.join(' ')));
  if (table.length < 2 || table.filter((r) => fill(r) >= 2).length < 2) return undefined;
  const cells = table.flat().filter(Boolean);
  if (cells.filter((c) => c.split(/\s+/).length >= 8).length > 0.3 * cells.length) return undefined;
  const fontOf = (segs: Segment[]) => segs.reduce((a, b) => (b.text.length > a.text.length ? b : a)).font;
  return {
    start: first,
    end,
    table: {
      rows: table,
      firstRowFont: fontOf(logical[0]!.segments),
      bodyFont: fontOf(logical.slice(1).flatMap((l) => l.segments)),
      rowBoxes: logical.map(({ segments: s }) => ({ x0: Math.min(...s.map((g) => g.x0)), y0: Math.min(...s.map((g) => g.top)), x1: Math.max(...s.map((g) => g.x1)), y1: Math.max(...s.map((g) => g.bottom)) })),
    },
  };
}

/**
 * Rows with several cells, and single-cell rows between them (group labels) or indented past
 * the first column right under a row (the wrapped lines of a cell), each close to the one above.
 */
function runEnd(rows: readonly Row[], start: number): number {
  let end = start + 1;
  let firstColumnEnd = rows[start]!.cells[0]!.x1;
  while (end < rows.length) {
    const row = rows[end]!;
    if (isCode(row) || !near(rows[end - 1]!, row, MAX_ROW_GAP_EM)) break;
    const next = rows[end + 1];
    const multi = row.cells.length >= 2;
    const label = next && next.cells.length >= 2 && !isCode(next) && near(row, next, MAX_ROW_GAP_EM);
    const wrapped = row.cells[0]!.x0 > firstColumnEnd && near(rows[end - 1]!, row, 1.2);
    if (!multi && !label && !wrapped) break;
    if (multi) firstColumnEnd = Math.min(firstColumnEnd, row.cells[0]!.x1);
    end++;
  }
  return end;
}

/** A row above the run can be its header if it splits into cells without a run crossing a boundary. */
function fitsGrid(row: Row, boundaries: readonly Gutter[]): boolean {
  const crosses = row.cells.some((seg) => seg.items.some((it) => boundaries.some((b) => it.x0 < b.start && it.x1 > b.end)));
  return !crosses && fill(splitRow(row, boundaries)) >= 2;
}

const fill = (cells: readonly string[]) => cells.filter(Boolean).length;

/**
 * A row's text per column. A segment spanning a boundary is split between its runs, each run
 * going to the column its extent overlaps most (centred header labels stray over boundaries).
 */
function splitRow(row: Row, boundaries: readonly Gutter[]): string[] {
  const edges = [-Infinity, ...boundaries.map((b) => (b.start + b.end) / 2), Infinity];
  const columnOf = (x0: number, x1: number) => {
    let best = 0;
    let bestOverlap = -Infinity;
    for (let col = 0; col < edges.length - 1; col++) {
      const overlap = Math.min(x1, edges[col + 1]!) - Math.max(x0, edges[col]!);
      if (overlap > bestOverlap) {
        best = col;
        bestOverlap = overlap;
      }
    }
    return best;
  };
  const parts: string[][] = edges.slice(1).map(() => []);
  for (const seg of row.cells) {
    const byColumn = new Map<number, typeof seg.items>();
    for (const item of seg.items) {
      const col = columnOf(item.x0, item.x1);
      byColumn.set(col, [...(byColumn.get(col) ?? []), item]);
    }
    for (const [col, items] of byColumn) parts[col]!.push(toSegment(items).text);
  }
  return parts.map((p) => p.join(' '));
}
