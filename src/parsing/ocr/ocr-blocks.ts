import { inPageFractions, type PageBlock } from '../pdf/pdf-page-block.ts';
import { layoutPage } from '../pdf/pdf-layout.ts';
import { dropMargins, repeatedMargins, type MarginPage } from '../pdf/pdf-margins.ts';
import type { Segment } from '../pdf/pdf-segments.ts';
import type { OcrPage } from './ocr-tsv.ts';
import { keptLine, ocrLayout, type OcrLayout } from './ocr-layout.ts';
import { joinLines } from '../language/text-join.ts';

/**
 * An OCR'd page as blocks in reading order: laid out from the words' boxes (ocr-layout.ts), or,
 * from an engine that gives text only, tesseract's paragraphs in its order.
 */

export function ocrBlocks(page: OcrPage): PageBlock[] {
  return readOcrPage(page).blocks;
}

/** A page's blocks, and its words as segments for finding running headers and footers later. */
export type OcrRead = { blocks: PageBlock[]; layout?: OcrLayout };

export function readOcrPage(page: OcrPage): OcrRead {
  if (!page.boxes) return { blocks: paragraphBlocks(page) };
  const layout = ocrLayout(page.boxes);
  return { blocks: ocrSegmentBlocks(layout.segments, layout), layout };
}

/**
 * The pages' blocks without the lines that recur in their margins (on a quarter of the pages and
 * at least three: pdf-margins.ts); `others` are more pages of the document (a PDF's text pages).
 */
export function withoutRunningLines(reads: readonly OcrRead[], others: readonly MarginPage[] = []): PageBlock[][] {
  const laidOut = [...others, ...reads.flatMap((r) => (r.layout ? [r.layout] : []))];
  const repeated = laidOut.length >= 3 ? repeatedMargins(laidOut) : new Set<string>();
  return reads.map((r) => (r.layout && repeated.size ? ocrSegmentBlocks(dropMargins(r.layout, repeated), r.layout) : r.blocks));
}

/**
 * Laid-out segments as blocks. OCR gives no typography: size 0 keeps these blocks out of heading
 * detection, as the box heights of OCR'd lines are too uneven to rank headings by.
 */
export function ocrSegmentBlocks(segments: readonly Segment[], page: { width: number; height: number }): PageBlock[] {
  return layoutPage(segments).map((block) => inPageFractions({ ...block, size: 0, font: '' }, page.width, page.height));
}

function paragraphBlocks(page: OcrPage): PageBlock[] {
  const blocks: PageBlock[] = [];
  for (const paragraph of page.paragraphs) {
    const lines = paragraph.lines.filter((l) => keptLine(l.text, l.confidence));
    const text = joinLines(lines.map((l) => l.text));
    // OCR gives no typography: size 0 keeps these blocks out of heading detection.
    const boxes = lines.flatMap((l) => (l.box ? [{ ...l.box, text: l.text }] : []));
    if (text) blocks.push({ kind: 'paragraph', text, size: 0, font: '', lines: lines.length, boxes });
  }
  return blocks;
}

export const ocrText = (blocks: readonly PageBlock[]) => blocks.map((b) => b.text).join('\n');
