import type { PageBlock } from './pdf-page-block.ts';
import type { OcrPage } from './ocr-tsv.ts';
import { joinLines } from './text-join.ts';
import { textQuality } from './text-quality.ts';

/**
 * Tesseract's paragraphs as blocks. Lines it barely recognised are mostly the texture of a
 * photo or a rule read as letters ("fi 3 aw"); they are dropped rather than indexed.
 */

const MIN_CONFIDENCE = 40;
const DOUBTFUL_CONFIDENCE = 65;

export function ocrBlocks(page: OcrPage): PageBlock[] {
  const blocks: PageBlock[] = [];
  for (const paragraph of page.paragraphs) {
    const lines = paragraph.lines.filter((l) => l.confidence >= MIN_CONFIDENCE && (l.confidence >= DOUBTFUL_CONFIDENCE || textQuality(l.text).score >= 0.5));
    const text = joinLines(lines.map((l) => l.text));
    // OCR gives no typography: size 0 keeps these blocks out of heading detection.
    const boxes = lines.flatMap((l) => (l.box ? [{ ...l.box, text: l.text }] : []));
    if (text) blocks.push({ kind: 'paragraph', text, size: 0, font: '', lines: lines.length, boxes });
  }
  return blocks;
}

export const ocrText = (blocks: readonly PageBlock[]) => blocks.map((b) => b.text).join('\n');
