import type { PageBlock } from './pdf-page-block.ts';

/**
 * Which blocks are headings, decided for the whole document once its body style is known: a
 * short block set larger than the body text, or a short line in a font the body rarely uses
 * (pdf.js does not tell bold from italic, so "another font" stands in for bold), or a side
 * heading in the margin column. Larger sizes rank higher; same-size headings in another font
 * and side headings come below every larger one.
 */

export type BodyStyle = {
  size: number;
  font: string;
  /** Share of the document's characters set in each font. */
  fontShare: ReadonlyMap<string, number>;
};

const MAX_LEVEL = 6;

/**
 * `offLadder`: blocks whose size must not add a rung to the ladder (a contents page's title);
 * they take the level of the first rung at or below their size.
 */
export function headingLevels(blocks: readonly PageBlock[], body: BodyStyle, offLadder: ReadonlySet<number> = new Set()): (number | undefined)[] {
  const kinds = blocks.map((b) => headingKind(b, body));
  const sizes = ladder(blocks.filter((_, i) => kinds[i] === 'larger' && !offLadder.has(i)).map((b) => b.size));
  // Rank on the ladder: the rungs clearly above this size, plus one.
  const rank = (size: number) => sizes.filter((rung) => rung - size > RUNG_GAP * rung).length + 1;
  const depths = blocks.filter((_, i) => kinds[i] === 'label').map((b) => numberingDepth(b.text) ?? Infinity);
  const shallowest = Math.min(...depths);
  return blocks.map((b, i) => {
    if (kinds[i] === 'larger') return Math.min(MAX_LEVEL, rank(b.size));
    if (kinds[i] === 'font') return Math.min(MAX_LEVEL, sizes.length + 1);
    // Side headings nest by their section numbers ("2.3.59.1.6" under "2.3.59.1").
    if (kinds[i] === 'label') return Math.min(MAX_LEVEL, sizes.length + 1 + Math.max(0, (numberingDepth(b.text) ?? shallowest) - shallowest || 0));
    return undefined;
  });
}

/** "2.3.59.1 Scope" → 4; undefined without a dotted section number. */
const numberingDepth = (text: string) => /^(\d+(?:\.\d+)+)\.?\s/.exec(text)?.[1]!.split('.').length;

const sizeKey = (size: number) => Math.round(size * 2) / 2;

/**
 * Sizes closer than this (relative) are one rung: a heading scaled to 14.2 pt beside one at 14.6
 * is the same style drawn by another producer or transform, not a level of its own.
 */
const RUNG_GAP = 0.04;

/** The heading sizes of the document, largest first, near-equal sizes merged into one rung. */
function ladder(sizes: readonly number[]): number[] {
  const rungs: number[] = [];
  for (const size of [...new Set(sizes.map(sizeKey))].sort((a, b) => b - a)) {
    const last = rungs[rungs.length - 1];
    if (last === undefined || last - size > RUNG_GAP * last) rungs.push(size);
  }
  return rungs;
}

function headingKind(block: PageBlock, body: BodyStyle): 'larger' | 'font' | 'label' | undefined {
  // Size 0: OCR and rotated text, which carry no typography to judge by.
  if ((block.kind !== 'paragraph' && block.kind !== 'list_item') || !(block.size > 0)) return undefined;
  const { text } = block;
  if (block.label) return text.length <= 150 && /\p{L}/u.test(text) ? 'label' : undefined;
  if (!isShortLine(block)) return undefined;
  if (sizeKey(block.size) >= sizeKey(body.size * 1.15)) return 'larger';
  return isFontHeading(block, body) ? 'font' : undefined;
}

// A web or mail address: section titles have none; the lines that do are colophons and running
// footers ("Permanent URL: http://sprouts.aisnet.org/9-37"), which would head every page after.
const ADDRESS = /\bhttps?:\/\/|\bwww\.\S|\S@\S+\.\p{L}/iu;

/**
 * Short as a heading is: a few lines, a few words, at least two letters, not cut off at a comma,
 * no address.
 */
function isShortLine({ text, lines }: PageBlock): boolean {
  const words = text.split(/\s+/).length;
  if (lines > 3 || text.length > 150 || words > 20 || /[,;]$/.test(text) || ADDRESS.test(text)) return false;
  return (text.match(/\p{L}/gu) ?? []).length >= 2;
}

/** Body-sized, but a title in a font the body rarely uses (bold, as pdf.js cannot say). */
function isFontHeading(block: PageBlock, body: BodyStyle): boolean {
  const { text } = block;
  const rareFont = block.font !== body.font && (body.fontShare.get(block.font) ?? 0) < 0.1;
  const titleLike = /^[\p{Lu}\p{N}]/u.test(text) && !/[.,;:!?]$/.test(text) && text.length <= 120;
  return block.lines <= 2 && rareFont && titleLike && block.size >= body.size * 0.95;
}
