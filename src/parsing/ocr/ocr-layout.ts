import type { TextItem } from '../pdf/pdf-items.ts';
import type { MarginPage } from '../pdf/pdf-margins.ts';
import { buildSegments } from '../pdf/pdf-segments.ts';
import type { OcrBoxes, OcrWord } from './ocr-tsv.ts';
import { textQuality } from '../language/text-quality.ts';

/**
 * The words tesseract placed, laid out like a PDF's text layer: each kept word becomes a text run
 * in pixels, so the reading order, tables and running headers of OCR'd pages come from the same
 * steps as those of text PDFs (columns cut at their gutters, a title across them read first,
 * dot-leader rows kept whole) instead of from the order tesseract lists its blocks in, which on
 * photographed and multi-column pages can put a column's tail after the footer or split a row.
 * Lines tesseract barely recognised are mostly the texture of a photo or a rule read as letters
 * ("fi 3 aw"): they are dropped rather than indexed.
 */

const MIN_CONFIDENCE = 40;
const DOUBTFUL_CONFIDENCE = 65;

/** A line worth keeping: read with fair confidence, or with doubt but reading as words. */
export const keptLine = (text: string, confidence: number) =>
  confidence >= MIN_CONFIDENCE && (confidence >= DOUBTFUL_CONFIDENCE || textQuality(text).score >= 0.5);

/** A laid-out scan: its segments in pixels, and the image's size to place them on the page. */
export type OcrLayout = MarginPage & { width: number };

export function ocrLayout(boxes: OcrBoxes): OcrLayout {
  const byLine = new Map<string, OcrWord[]>();
  for (const word of boxes.words) byLine.set(word.line, [...(byLine.get(word.line) ?? []), word]);
  const items: TextItem[] = [];
  for (const [key, words] of byLine) {
    const confidence = words.reduce((n, w) => n + w.confidence, 0) / words.length;
    const text = words.map((w) => w.text).join(' ');
    if (!keptLine(text, confidence)) continue;
    // The line's box gives every word the same baseline and size, so a line stays one row
    // whatever its ascenders and descenders; a segment's box is its line's box.
    const top = Math.min(...words.map((w) => w.top));
    const line = boxes.lines.get(key) ?? { top, height: Math.max(...words.map((w) => w.top + w.height)) - top };
    const size = Math.max(1, line.height);
    for (const w of words) {
      items.push({ text: w.text, x0: w.left, x1: w.left + w.width, y: line.top + 0.8 * size, size, font: '', mono: false, spaceBefore: true, spaceAfter: true });
    }
  }
  return {
    segments: buildSegments(items),
    width: boxes.width || Math.max(0, ...items.map((i) => i.x1)),
    height: boxes.height || Math.max(0, ...items.map((i) => i.y + 0.2 * i.size)),
  };
}
