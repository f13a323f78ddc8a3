import { readFile } from 'node:fs/promises';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { threadOcr, type OcrEngine } from '../ocr/ocr.ts';
import { assemblePdf } from './pdf-assemble.ts';
import { looksTruncated, openPdf } from './pdf-open.ts';
import { layerSource, readPage, type PageReader, type PageSource } from './pdf-page.ts';
import { openPdfium, type PdfiumDocument } from './pdfium.ts';
import { parserProcessSettings, type PdfEngine } from '../parser-settings.ts';
import { OCR_RENDER, type RenderOptions } from './pdf-render.ts';
import { withTimeout } from '../timeout.ts';
import { ParseFailure, type Parser } from '../types.ts';

/**
 * PDF: text per page in reading order (columns, tables row by row, headings), OCR for pages
 * without a usable text layer. Pages are read one at a time and released, so memory follows the
 * page, not the document; the layout is done once all pages are in (headers, footers and the body
 * style are document-wide facts).
 */

export type PdfParserOptions = {
  /** The OCR engine; by default the one this thread shares between documents. */
  ocr?: OcrEngine;
  render?: RenderOptions;
  /** Bound on opening the file and on each page (text, rendering, OCR). */
  openTimeoutMs?: number;
  pageTimeoutMs?: number;
  /** The text engine; by default the parser process's setting (KBQA_PDF_ENGINE). */
  engine?: PdfEngine;
};

export function createPdfParser({ ocr = threadOcr, render = OCR_RENDER, openTimeoutMs = 30_000, pageTimeoutMs = 120_000, engine }: PdfParserOptions = {}): Parser {
  return async (input) => {
    const bytes = new Uint8Array(await readFile(input.path));
    const truncated = looksTruncated(bytes);
    const reader: PageReader = { ocr: input.limits.ocr ? ocr : undefined, ocrLanguages: input.ocrLanguages, render };
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    // pdf.js opens the file only when a page needs it: every page when PDFium refuses the file,
    // else the pages PDFium's text layer is not enough for (OCR, image coverage).
    // A truncated file is pdf.js's to recover: PDFium rebuilds its page tree with pages it has no content for.
    const pdfium = (engine ?? parserProcessSettings().pdfEngine) === 'pdfium' && !truncated ? await openPdfiumOrNot(bytes) : undefined;
    let doc: PDFDocumentProxy | undefined;
    const pdfjs = async () => (doc ??= await openPdf(bytes, openTimeoutMs));
    const sources: PageSource[] = [];
    let unreadable = 0;
    try {
      const pageCount = pdfium ? pdfium.pageCount : (await pdfjs()).numPages;
      if (pageCount > input.limits.maxPages) {
        throw new ParseFailure('too_large', `The PDF has ${pageCount} pages; the limit is ${input.limits.maxPages}.`);
      }
      for (let n = 1; n <= pageCount; n++) {
        const fast = pdfium && pdfiumPage(pdfium, n, reader, warn);
        const source = fast ?? (await readOnePage(await pdfjs(), n, reader, pageTimeoutMs, warn));
        if (!source) unreadable++;
        sources.push(source ?? { kind: 'none' });
        input.onProgress?.(n, pageCount);
      }
      if (unreadable === pageCount) throw new ParseFailure('corrupt', 'pdf.js could not read any page of the PDF.');
      if (truncated) warnings.push(`The file looks truncated (it does not end with %%EOF); ${pageCount - unreadable} page(s) were recovered.`);
    } finally {
      pdfium?.close();
      // pdf.js's fonts, cross-reference table and page objects go before the layout allocates, so
      // their heap is reused rather than grown (the 400-page manual's parser peak: 8 MB lower).
      await doc?.destroy().catch(() => {});
    }
    return assemblePdf(sources, input.limits, warnings);
  };
}

export const parsePdf: Parser = createPdfParser();

/** PDFium, unless it refuses the file or fails to start: then pdf.js reads it, as before. */
async function openPdfiumOrNot(bytes: Uint8Array): Promise<PdfiumDocument | undefined> {
  try {
    return await openPdfium(bytes);
  } catch {
    return undefined;
  }
}

/** The page from PDFium's text layer; undefined when pdf.js must read it (it may need OCR: layerSource) or PDFium failed on it. */
function pdfiumPage(pdfium: PdfiumDocument, n: number, reader: PageReader, warn: (m: string) => void): PageSource | undefined {
  try {
    return layerSource(pdfium.pageText(n), reader, warn, n, () => pdfium.imageCoverage(n));
  } catch {
    return undefined;
  }
}

/** A page pdf.js cannot read is skipped with a warning; one that hangs fails the document. */
async function readOnePage(doc: PDFDocumentProxy, n: number, reader: PageReader, timeoutMs: number, warn: (m: string) => void) {
  const tooSlow = () => new ParseFailure('timeout', `Page ${n} took longer than ${timeoutMs} ms to read.`);
  let page: PDFPageProxy | undefined;
  try {
    page = await withTimeout(doc.getPage(n), timeoutMs, tooSlow);
    return await withTimeout(readPage(doc, page, reader, warn), timeoutMs, tooSlow);
  } catch (error) {
    if (error instanceof ParseFailure) throw error;
    warn(`page ${n} could not be read: ${(error as Error).message ?? String(error)}`);
    return undefined;
  } finally {
    page?.cleanup();
  }
}
