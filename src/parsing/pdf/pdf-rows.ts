import type { Segment, TextBox } from './pdf-segments.ts';

/**
 * Within one region (one column of text), the segments that sit on the same baseline form a row:
 * a line of prose has one segment, a table row one per cell.
 */

export type Row = {
  /** Left to right. */
  cells: Segment[];
  top: number;
  bottom: number;
  y: number;
  size: number;
};

/** A row read as a line of text: its cells joined by spaces, its typography taken from the longest cell (mono: every cell is). */
export type Line = TextBox;

export function groupRows(segments: readonly Segment[]): Row[] {
  const rows: Row[] = [];
  for (const seg of [...segments].sort((a, b) => a.y - b.y || a.x0 - b.x0)) {
    const row = rows[rows.length - 1];
    if (row && sameRow(row, seg)) {
      row.cells.push(seg);
      row.top = Math.min(row.top, seg.top);
      row.bottom = Math.max(row.bottom, seg.bottom);
      if (seg.size > row.size) row.size = seg.size;
    } else {
      rows.push({ cells: [seg], top: seg.top, bottom: seg.bottom, y: seg.y, size: seg.size });
    }
  }
  for (const row of rows) row.cells.sort((a, b) => a.x0 - b.x0);
  return rows;
}

function sameRow(row: Row, seg: Segment): boolean {
  const overlap = Math.min(row.bottom, seg.bottom) - Math.max(row.top, seg.top);
  return Math.abs(seg.y - row.y) < 0.3 * Math.min(row.size, seg.size) || overlap >= 0.6 * Math.min(row.bottom - row.top, seg.bottom - seg.top);
}

export function rowLine(row: Row): Line {
  const main = row.cells.reduce((a, b) => (b.text.length * b.size > a.text.length * a.size ? b : a));
  return {
    text: row.cells.map((c) => c.text).join(' '),
    x0: row.cells[0]!.x0,
    x1: Math.max(...row.cells.map((c) => c.x1)),
    top: row.top,
    bottom: row.bottom,
    y: main.y,
    size: main.size,
    font: main.font,
    mono: row.cells.every((c) => c.mono),
  };
}
