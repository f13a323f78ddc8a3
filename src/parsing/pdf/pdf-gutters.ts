/**
 * Vertical gaps in a set of horizontal spans (segments of text): where columns of a page or of
 * a table meet. Shared by the column and the table detection.
 */

export type Span = { x0: number; x1: number };
export type Gutter = { start: number; end: number; count: number };

/**
 * Candidate gutters: within each x-range covered by at most maxCount segments, the widest
 * stretch at the lowest coverage that is still at least minWidth wide. Taking the lowest level
 * keeps the ragged ends of a column's lines out of the gutter.
 */
export function gutters(node: readonly Span[], maxCount: number, minWidth: number): Gutter[] {
  const pieces = coverage(node);
  const out: Gutter[] = [];
  let run: Gutter[] = [];
  const flush = () => {
    const levels = [...new Set(run.map((p) => p.count))].sort((a, b) => a - b);
    for (const level of levels) {
      const best = widestStretch(run, level);
      if (best && best.end - best.start >= minWidth) {
        out.push(best);
        break;
      }
    }
    run = [];
  };
  for (const piece of pieces) {
    if (piece.count <= maxCount) run.push(piece);
    else if (run.length) flush();
  }
  if (run.length) flush();
  return out;
}

/** The step function "how many segments cover x", between the node's left and right edges. */
function coverage(node: readonly Span[]): Gutter[] {
  const events = node.flatMap((s) => [{ x: s.x0, d: 1 }, { x: s.x1, d: -1 }]).sort((a, b) => a.x - b.x);
  const pieces: Gutter[] = [];
  let count = 0;
  for (let i = 0; i < events.length; i++) {
    count += events[i]!.d;
    const next = events[i + 1];
    if (next && next.x > events[i]!.x) pieces.push({ start: events[i]!.x, end: next.x, count });
  }
  return pieces;
}

function widestStretch(run: Gutter[], level: number): Gutter | undefined {
  let best: Gutter | undefined;
  let current: Gutter | undefined;
  for (const piece of run) {
    if (piece.count > level) {
      current = undefined;
      continue;
    }
    current = current ? { ...current, end: piece.end } : { ...piece, count: level };
    if (!best || current.end - current.start > best.end - best.start) best = current;
  }
  return best;
}
