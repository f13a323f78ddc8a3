import { normaliseBox, type LineBox } from '../../domain/document/box.ts';
import type { BlockKind } from '../types.ts';

/**
 * A block as one page's layout produces it. Whether a short line in a large or different font is
 * a heading can only be told once the whole document's body style is known, so blocks keep the
 * typography that decision needs.
 */
export type PageBlock = {
  kind: Exclude<BlockKind, 'heading'>;
  text: string;
  /** Nesting depth of a list item. */
  level?: number;
  size: number;
  font: string;
  lines: number;
  /** A side heading: a label in the margin column beside the text it introduces. */
  label?: boolean;
  /** Its lines: in page units (points, pixels) as layout measures them, fractions of the page once placed (inPageFractions). */
  boxes?: LineBox[];
};

/** Blocks measured in page units (points, pixels) with their lines as fractions of the page (see Box). */
export function inPageFractions(block: PageBlock, width: number, height: number): PageBlock {
  if (!block.boxes || width <= 0 || height <= 0) return block;
  return { ...block, boxes: block.boxes.map(({ text, ...rect }) => ({ ...normaliseBox(rect, width, height), text })) };
}
