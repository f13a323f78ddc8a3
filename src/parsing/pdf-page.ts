import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { isBlank } from './gray-image.ts';
import { OcrTimeout, type OcrEngine } from './ocr.ts';
import { ocrBlocks, ocrText } from './ocr-blocks.ts';
import { imageCoverage } from './pdf-image-coverage.ts';
import { readPageText, type PageText } from './pdf-items.ts';
import type { PageBlock } from './pdf-page-block.ts';
import { renderPage, type RenderOptions } from './pdf-render.ts';
import { textQuality } from './text-quality.ts';

/**
 * One page's text: its text layer when that is usable, else what OCR reads from the rendered
 * page. A layer is unusable when it is (nearly) empty, when it reads as noise (a bad OCR layer
 * over a scan), or when a page with little text is mostly one image (a scan with a stamp).
 * A garbled layer is re-read and the better of the two kept.
 */

export type PageSource =
  | { kind: 'text'; text: PageText }
  | { kind: 'ocr'; blocks: PageBlock[] }
  /** No text; ocrTimedOut when there may have been some that OCR did not finish reading. */
  | { kind: 'none'; ocrTimedOut?: boolean };

export type PageReader = {
  /** Undefined when OCR is off for this document. */
  ocr: OcrEngine | undefined;
  render: RenderOptions;
};

/** Fewer non-space characters than this is no text layer at all (a page number, a stray mark). */
const MIN_CHARS = 20;
/** Pages with fewer characters are checked for being one big image. */
const SPARSE_CHARS = 200;
/** Below this share of word-like tokens a text layer is noise. */
const GARBAGE_SCORE = 0.55;
/** Enough resolution to see whether a page has any ink at all. */
const PREVIEW: RenderOptions = { dpi: 50, maxPixels: 1_000_000 };

export async function readPage(doc: PDFDocumentProxy, page: PDFPageProxy, reader: PageReader, warn: (m: string) => void): Promise<PageSource> {
  const n = page.pageNumber;
  const text = await readPageText(page);
  const layer = text.items.map((i) => i.text).join(' ');
  const chars = layer.replace(/\s+/g, '').length;
  const quality = textQuality(layer);
  const garbled = quality.tokens >= 8 && quality.score < GARBAGE_SCORE;
  const fromLayer: PageSource = chars || text.rotated.length ? { kind: 'text', text } : { kind: 'none' };
  if (!reader.ocr) {
    if (garbled) warn(`page ${n}: the text layer looks garbled and OCR is off`);
    return fromLayer;
  }
  const needsOcr = chars < MIN_CHARS || garbled || (chars < SPARSE_CHARS && (await imageCoverage(page)) >= 0.5);
  if (!needsOcr) return fromLayer;

  // A blank page (a separator, the back of a sheet) is told from a thumbnail before paying for
  // the full-resolution rendering.
  if (!chars && isBlank(await renderPage(doc, page, PREVIEW))) return fromLayer;
  const image = await renderPage(doc, page, reader.render);
  if (isBlank(image)) return fromLayer;
  let blocks: PageBlock[];
  try {
    blocks = ocrBlocks(await reader.ocr.recognize(image));
  } catch (error) {
    if (!(error instanceof OcrTimeout)) throw error;
    warn(`page ${n}: ${error.message}`);
    return fromLayer.kind === 'none' ? { kind: 'none', ocrTimedOut: true } : fromLayer;
  }
  const read = ocrText(blocks);
  if (!chars) {
    if (!blocks.length) warn(`page ${n}: OCR found no text on the page image`);
    return blocks.length ? { kind: 'ocr', blocks } : fromLayer;
  }
  const ocrQuality = textQuality(read);
  if (garbled) {
    if (ocrQuality.score > quality.score + 0.1 && ocrQuality.tokens >= 5) {
      warn(`page ${n}: the text layer looks garbled (${percent(quality.score)} word-like); used OCR instead (${percent(ocrQuality.score)})`);
      return { kind: 'ocr', blocks };
    }
    warn(`page ${n}: the text layer looks garbled (${percent(quality.score)} word-like) and OCR did no better; kept the layer`);
    return fromLayer;
  }
  // A sparse layer over a page-sized image: keep OCR only when it reads clearly more.
  const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
  return words(read) > 2 * words(layer) + 10 && ocrQuality.score >= GARBAGE_SCORE ? { kind: 'ocr', blocks } : fromLayer;
}

const percent = (x: number) => `${Math.round(x * 100)}%`;
