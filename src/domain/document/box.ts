/**
 * Where text sits on its page: one rectangle per visual line, as fractions of the page's width and
 * height with the origin at the top left. Fractions keep PDF points, scan pixels and any rendering
 * scale out of the contract: a client multiplies by the size of the image it shows.
 */
export type Box = {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Offset of the line's first character in the text the box belongs to (a block's, a chunk's). */
  start: number;
};

/** A line as a parser measured it, before its place in the joined text is known. */
export type LineBox = Omit<Box, 'start'> & { text: string };

/** A chunk keeps at most this many line boxes: a long table or list is still located by its first lines. */
export const MAX_BOXES = 64;

const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 10_000) / 10_000;

/** A rectangle in page units (points, pixels) as fractions of the page. */
export function normaliseBox(box: Omit<Box, 'start'>, width: number, height: number): Omit<Box, 'start'> {
  return { x0: round(box.x0 / width), y0: round(box.y0 / height), x1: round(box.x1 / width), y1: round(box.y1 / height) };
}

/**
 * Each line's offset in `text`, the lines joined and normalised: found by looking for the line's
 * first characters from where the previous line was found, so hyphenation and collapsed spaces do
 * not throw the offsets off by more than a character or two.
 */
export function placeLines(text: string, lines: readonly LineBox[]): Box[] {
  const boxes: Box[] = [];
  let from = 0;
  for (const { text: line, ...rect } of lines) {
    const head = line.replace(/\s+/g, ' ').trim().slice(0, 12);
    const at = head ? text.indexOf(head, from) : -1;
    const start = at >= 0 ? at : Math.min(from, text.length);
    boxes.push({ ...rect, start });
    from = at >= 0 ? at + Math.max(1, head.length) : from;
  }
  return boxes;
}

/**
 * The boxes of the lines that the span [start, end) of their text covers: a line runs from its
 * start to the next line's. Empty when none does (boxes without offsets, a span past the end).
 */
export function boxesOfSpan(boxes: readonly Box[], start: number, end: number): Box[] {
  return boxes.filter((box, i) => {
    const lineEnd = boxes[i + 1]?.start ?? Infinity;
    return box.start < end && lineEnd > start;
  });
}
