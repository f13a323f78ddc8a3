import { type Block, type BlockKind, type MediaType, type ParsedDocument, type ParseLimits, ParseFailure } from './types.ts';
import { normalizeCode, normalizeText } from './language/text-normalize.ts';
import { placeLines, type LineBox } from '../domain/document/box.ts';

export type BlockBuilder = {
  /** Opens a section: later blocks carry this title in their headingPath until a heading of the same or a higher level. */
  heading(text: string, level: number, page: number, lines?: readonly LineBox[]): void;
  /** `lines`: where the block's lines sit on the page, as fractions of it (see Box). */
  add(kind: Exclude<BlockKind, 'heading'>, text: string, page: number, level?: number, lines?: readonly LineBox[]): void;
  /** Starts a fresh heading path (a new sheet, say). */
  resetHeadings(): void;
  /**
   * Closes the sections opened since `count` blocks had been emitted, so their headings stop
   * being ancestors (a contents page's title, once the contents are over).
   */
  closeHeadingsSince(count: number): void;
  readonly count: number;
  finish(doc: { mediaType: MediaType; pageCount: number; warnings?: string[]; limits: ParseLimits }): ParsedDocument;
};

/**
 * Every parser emits blocks through this, so normalisation, the never-empty rule and the
 * heading path work the same for all formats.
 */
export function createBlockBuilder(): BlockBuilder {
  const blocks: Block[] = [];
  let path: { level: number; text: string; at: number }[] = [];
  const titles = () => path.map((h) => h.text);

  return {
    heading(raw, level, page, lines) {
      const text = normalizeText(raw);
      if (!text) return;
      path = path.filter((h) => h.level < level);
      blocks.push(withLines({ page, kind: 'heading', text, headingPath: titles(), level }, lines));
      path.push({ level, text, at: blocks.length - 1 });
    },
    add(kind, raw, page, level, lines) {
      const text = kind === 'code' ? normalizeCode(raw) : normalizeText(raw);
      if (!text) return;
      const block: Block = { page, kind, text, headingPath: titles() };
      if (level !== undefined) block.level = level;
      blocks.push(withLines(block, lines));
    },
    resetHeadings() {
      path = [];
    },
    closeHeadingsSince(count) {
      path = path.filter((h) => h.at < count);
    },
    get count() {
      return blocks.length;
    },
    finish({ mediaType, pageCount, warnings = [], limits }) {
      if (blocks.length === 0) throw new ParseFailure('empty', 'The document contains no text.');
      if (pageCount > limits.maxPages) throw new ParseFailure('too_large', `The document has ${pageCount} pages; the limit is ${limits.maxPages}.`);
      return { mediaType, pageCount, blocks, ocrPages: [], warnings };
    },
  };
}

const withLines = (block: Block, lines: readonly LineBox[] | undefined): Block => (lines?.length ? { ...block, boxes: placeLines(block.text, lines) } : block);
