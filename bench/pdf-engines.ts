import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { init as initEmbedPdf } from '@embedpdf/pdfium';
import { PDFiumLibrary } from '@hyzyla/pdfium';
import { openPdf } from '../src/parsing/pdf/pdf-open.ts';

/**
 * Each candidate PDF engine reading every page's text, nothing more, on this thread: the floor
 * our pipeline is measured against. Each returns the text per page (for the fidelity check) and
 * how many character boxes it produced (what the layout needs besides the text).
 */

export type EngineRead = { pages: string[]; boxes: number };
export type Engine = (bytes: Uint8Array) => Promise<EngineRead>;

/** pdf.js: the text content of every page (its runs come with boxes: one per run, not per character). */
const pdfjs: Engine = async (bytes) => {
  const doc = await openPdf(bytes, 60_000);
  const pages: string[] = [];
  let boxes = 0;
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const runs = content.items.flatMap((i) => ('str' in i ? [i.str + (i.hasEOL ? '\n' : '')] : []));
      boxes += runs.length;
      pages.push(runs.join(''));
      page.cleanup();
    }
  } finally {
    await doc.destroy();
  }
  return { pages, boxes };
};

const wasmOf = (pkg: string, file: string) => {
  const path = join(dirname(createRequire(import.meta.url).resolve(pkg)), file);
  const bytes = readFileSync(path);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
};

/** @embedpdf/pdfium: PDFium's C API as is, so text and a box per character (FPDFText_GetCharBox). */
const embedpdf: Engine = async (bytes) => {
  const m = await initEmbedPdf({ wasmBinary: wasmOf('@embedpdf/pdfium', 'pdfium.wasm') } as never);
  const heap = m.pdfium as unknown as { HEAPU8: Uint8Array; HEAPF64: Float64Array; wasmExports: { malloc(n: number): number; free(p: number): void } };
  const { malloc, free } = heap.wasmExports;
  m.FPDF_InitLibrary();
  const data = malloc(bytes.length);
  heap.HEAPU8.set(bytes, data);
  const doc = m.FPDF_LoadMemDocument(data, bytes.length, '');
  const box = malloc(32);
  const pages: string[] = [];
  let boxes = 0;
  try {
    for (let i = 0; i < m.FPDF_GetPageCount(doc); i++) {
      const page = m.FPDF_LoadPage(doc, i);
      const text = m.FPDFText_LoadPage(page);
      const count = m.FPDFText_CountChars(text);
      const buf = malloc((count + 1) * 2);
      m.FPDFText_GetText(text, 0, count, buf);
      pages.push(m.pdfium.UTF16ToString(buf));
      free(buf);
      // The four doubles land in the heap; reading them back is part of the cost the layout would pay.
      let sum = 0;
      for (let c = 0; c < count; c++) {
        if (m.FPDFText_GetCharBox(text, c, box, box + 8, box + 16, box + 24)) sum += heap.HEAPF64[box / 8]!;
        boxes++;
      }
      if (Number.isNaN(sum)) boxes = -1;
      m.FPDFText_ClosePage(text);
      m.FPDF_ClosePage(page);
    }
  } finally {
    free(box);
    m.FPDF_CloseDocument(doc);
    free(data);
  }
  return { pages, boxes };
};

/** @hyzyla/pdfium: a friendlier wrapper whose build exports page text only (no character boxes). */
const hyzyla: Engine = async (bytes) => {
  const library = await PDFiumLibrary.init();
  const doc = await library.loadDocument(bytes);
  const pages: string[] = [];
  try {
    for (const page of doc.pages()) pages.push(page.getText());
  } finally {
    doc.destroy();
    library.destroy();
  }
  return { pages, boxes: 0 };
};

export const ENGINES = { pdfjs, embedpdf, hyzyla } as const;
export type EngineName = keyof typeof ENGINES;
