import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { isBlank } from '../ocr/gray-image.ts';
import { OcrTimeout, type OcrEngine } from '../ocr/ocr.ts';
import type { OcrLanguage } from '../ocr/ocr-languages.ts';
import { ocrText, readOcrPage } from '../ocr/ocr-blocks.ts';
import { imageCoverage } from './pdf-image-coverage.ts';
import type { OcrLayout } from '../ocr/ocr-layout.ts';
import { readPageText, type PageText } from './pdf-items.ts';
import type { PageBlock } from './pdf-page-block.ts';
import { renderPage, type RenderOptions } from './pdf-render.ts';
import { textQuality, type TextQuality } from '../language/text-quality.ts';
import { brokenGlyphWords } from '../language/text-repair.ts';

/**
 * One page's text: its text layer when that is usable, else what OCR reads from the rendered
 * page. A layer is unusable when it is (nearly) empty, when it reads as noise (a bad OCR layer
 * over a scan), when words hold characters a font without a usable ToUnicode map produces
 * (arrows, private-use code points: what is left after the known ligature mis-mappings are
 * repaired), or when a page with little text is mostly one image (a scan with a stamp).
 * A garbled layer is re-read and the better of the two kept.
 */

export type PageSource =
  | { kind: 'text'; text: PageText }
  /** Layout: the OCR'd words as segments, for the running headers and footers of the document. */
  | { kind: 'ocr'; blocks: PageBlock[]; layout?: OcrLayout }
  /** No text; ocrTimedOut when there may have been some that OCR did not finish reading. */
  | { kind: 'none'; ocrTimedOut?: boolean };

export type PageReader = {
  /** Undefined when OCR is off for this document. */
  ocr: OcrEngine | undefined;
  /** The document's OCR languages; undefined: detected per page. */
  ocrLanguages?: readonly OcrLanguage[];
  render: RenderOptions;
};

/** Fewer non-space characters than this is no text layer at all (a page number, a stray mark). */
const MIN_CHARS = 20;
/** Pages with fewer characters are checked for being one big image. */
const SPARSE_CHARS = 200;
/** Below this share of word-like tokens a text layer is noise. */
const GARBAGE_SCORE = 0.55;
/**
 * This share of words with broken glyphs (and at least 3) marks a font with a broken map: a few
 * letters wrong in many words, which the word-likeness score alone would let through.
 */
const BROKEN_SHARE = 0.03;
/**
 * This share of control characters among a layer's characters marks a font whose raw codes came
 * through (TAMReview.pdf: 76-90% on its broken pages, whose leftovers can still score as words).
 */
const CONTROL_SHARE = 0.2;
/** Enough resolution to see whether a page has any ink at all. */
const PREVIEW: RenderOptions = { dpi: 50, maxPixels: 1_000_000 };

export async function readPage(doc: PDFDocumentProxy, page: PDFPageProxy, reader: PageReader, warn: (m: string) => void): Promise<PageSource> {
  const say = (message: string) => warn(`page ${page.pageNumber}: ${message}`);
  const layer = await readLayer(page);
  if (!reader.ocr) {
    if (layer.garbled) say('the text layer looks garbled and OCR is off');
    return layer.source;
  }
  if (!(await needsOcr(page, layer))) return layer.source;
  const image = await renderForOcr(doc, page, reader.render, !layer.chars);
  if (!image) return layer.source;
  let read: OcrSource;
  try {
    read = readOcr(await reader.ocr.recognize(image, { languages: reader.ocrLanguages }));
  } catch (error) {
    if (!(error instanceof OcrTimeout)) throw error;
    say(error.message);
    return layer.source.kind === 'none' ? { kind: 'none', ocrTimedOut: true } : layer.source;
  }
  return chooseText(layer, read, say);
}

type OcrSource = Extract<PageSource, { kind: 'ocr' }>;

const readOcr = (page: Awaited<ReturnType<OcrEngine['recognize']>>): OcrSource => ({ kind: 'ocr', ...readOcrPage(page) });

/** The page's text layer, judged. */
type Layer = {
  text: string;
  chars: number;
  quality: TextQuality;
  /** Words with broken glyphs. */
  broken: number;
  /** The font's raw codes came through (see CONTROL_SHARE): nothing of the layer can be trusted. */
  rawCodes: boolean;
  garbled: boolean;
  source: PageSource;
};

const readLayer = async (page: PDFPageProxy): Promise<Layer> => judgeLayer(await readPageText(page));

/**
 * A text layer another engine read (pdfium.ts): its source when it is usable as it is, undefined
 * when the page may need OCR (a thin or garbled layer, a sparse one over a large image: the same
 * tests as needsOcr), so pdf.js reads such pages exactly as before.
 */
export function layerSource(text: PageText, reader: PageReader, warn: (m: string) => void, pageNumber: number, coverage: () => number): PageSource | undefined {
  const layer = judgeLayer(text);
  if (!reader.ocr) {
    if (layer.garbled) warn(`page ${pageNumber}: the text layer looks garbled and OCR is off`);
    return layer.source;
  }
  return layer.chars < MIN_CHARS || layer.garbled || (layer.chars < SPARSE_CHARS && coverage() >= 0.5) ? undefined : layer.source;
}

function judgeLayer(text: PageText): Layer {
  const layer = text.items.map((i) => i.text).join(' ');
  const chars = layer.replace(/\s+/g, '').length;
  const quality = textQuality(layer);
  const broken = brokenGlyphWords(layer).length;
  const rawCodes = text.controlChars >= MIN_CHARS && text.controlChars >= CONTROL_SHARE * (chars + text.controlChars);
  const garbled = rawCodes || (quality.tokens >= 8 && (quality.score < GARBAGE_SCORE || (broken >= 3 && broken >= BROKEN_SHARE * quality.tokens)));
  const source: PageSource = chars || text.rotated.length ? { kind: 'text', text } : { kind: 'none' };
  return { text: layer, chars, quality, broken, rawCodes, garbled, source };
}

const needsOcr = async (page: PDFPageProxy, layer: Layer) =>
  layer.chars < MIN_CHARS || layer.garbled || (layer.chars < SPARSE_CHARS && (await imageCoverage(page)) >= 0.5);

/** The page rendered for OCR; undefined when it is blank. */
async function renderForOcr(doc: PDFDocumentProxy, page: PDFPageProxy, render: RenderOptions, previewFirst: boolean) {
  // A blank page (a separator, the back of a sheet) is told from a thumbnail before paying for
  // the full-resolution rendering.
  if (previewFirst && isBlank(await renderPage(doc, page, PREVIEW))) return undefined;
  const image = await renderPage(doc, page, render);
  return isBlank(image) ? undefined : image;
}

/** The text layer or what OCR read, whichever reads better; `say` tells why when it matters. */
function chooseText(layer: Layer, ocr: OcrSource, say: (message: string) => void): PageSource {
  const { blocks } = ocr;
  const read = ocrText(blocks);
  if (!layer.chars) {
    if (!blocks.length) say('OCR found no text on the page image');
    return blocks.length ? ocr : layer.source;
  }
  const ocrQuality = textQuality(read);
  const { quality } = layer;
  if (layer.garbled) {
    // Broken glyphs: OCR wins when it reads as well and has fewer of them; over raw font codes,
    // whenever it reads as language at all.
    const fewerBroken = brokenGlyphWords(read).length < layer.broken && ocrQuality.score >= quality.score - 0.05;
    const overRawCodes = layer.rawCodes && ocrQuality.score >= GARBAGE_SCORE;
    if ((ocrQuality.score > quality.score + 0.1 || fewerBroken || overRawCodes) && ocrQuality.tokens >= 5) {
      say(`the text layer looks garbled (${garbledWhy(layer)}); used OCR instead (${percent(ocrQuality.score)} word-like)`);
      return ocr;
    }
    say(`the text layer looks garbled (${garbledWhy(layer)}) and OCR did no better; kept the layer`);
    return layer.source;
  }
  // A sparse layer over a page-sized image: keep OCR only when it reads clearly more.
  const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
  return words(read) > 2 * words(layer.text) + 10 && ocrQuality.score >= GARBAGE_SCORE ? ocr : layer.source;
}

const percent = (x: number) => `${Math.round(x * 100)}%`;

const garbledWhy = (layer: Layer) =>
  `${percent(layer.quality.score)} word-like${layer.broken ? `, ${layer.broken} words with broken glyphs` : ''}${layer.rawCodes ? ', raw font codes' : ''}`;
