import type { LineBox } from '../domain/document/box.ts';
import type { BlockKind } from './types.ts';

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
  /** Its lines: in page points from the text layer (assembly makes them fractions of the page), as fractions already from OCR. */
  boxes?: LineBox[];
};
