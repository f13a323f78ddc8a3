import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PageText } from './pdf-items.ts';
import { pageRuns, type Affine, type Exports } from './pdfium-runs.ts';

/**
 * PDFium (Google's PDF engine, BSD-3/Apache-2.0) built for WebAssembly by @embedpdf/pdfium (MIT):
 * each page's text layer as the same positioned runs pdf.js gives (pdf-items.ts), in the page's
 * visual frame, read about 2.5× faster than pdf.js on the 400-page manual (docs/benchmarks.md,
 * issue 43 item 16). Text only: rendering, image coverage and OCR stay with pdf.js (pdf.ts).
 *
 * The engine is called through its raw exports: the 400-page manual makes ~2 million calls, and
 * cwrap's argument conversion costs more than the calls themselves. WebAssembly memory only
 * grows; an instance that grew past GROWN_BYTES (a large or hostile file) is dropped after its
 * document, and one that trapped (out of memory, an abort inside PDFium) is never used again.
 */

type Instance = { x: Exports; broken: boolean };

const GROWN_BYTES = 256 * 1024 * 1024;
/** PDFium's FPDF_GetLastError: a password is needed. */
const ERR_PASSWORD = 4;

let wasm: Uint8Array | undefined;
let current: Promise<Instance> | undefined;

async function instance(): Promise<Instance> {
  const { init } = await import('@embedpdf/pdfium');
  wasm ??= readFileSync(join(dirname(createRequire(import.meta.url).resolve('@embedpdf/pdfium')), 'pdfium.wasm'));
  const module = await init({ wasmBinary: wasm } as never);
  const x = (module as unknown as { pdfium: { wasmExports: Exports } }).pdfium.wasmExports;
  x.FPDF_InitLibrary!();
  return { x, broken: false };
}

/** Why PDFium did not open a file: pdf.js then reads it (and words the failure if it cannot). */
export class PdfiumRefused extends Error {
  constructor(readonly password: boolean) {
    super(password ? 'PDFium: the PDF needs a password' : 'PDFium could not open the file');
  }
}

export type PdfiumDocument = {
  pageCount: number;
  /** The page's text layer (1-based, as pdf.js numbers pages). */
  pageText(n: number): PageText;
  /** The share of the page its largest image covers (pdf-image-coverage.ts does it for pdf.js). */
  imageCoverage(n: number): number;
  close(): void;
};

export async function openPdfium(bytes: Uint8Array): Promise<PdfiumDocument> {
  current ??= instance();
  let engine: Instance;
  try {
    engine = await current;
    // One that trapped while opening an earlier document (so never closed it) is replaced too.
    if (engine.broken) engine = await (current = instance());
  } catch (error) {
    current = undefined;
    throw error;
  }
  const { x } = engine;
  const trap = <T>(fn: () => T): T => {
    // After a trap nothing PDFium holds can be trusted: the document's remaining pages go to pdf.js.
    if (engine.broken) throw new Error('PDFium trapped earlier in this document');
    try {
      return fn();
    } catch (error) {
      // A trap leaves PDFium's state undefined: the next document gets a new instance.
      engine.broken = true;
      throw error;
    }
  };
  const data = trap(() => x.malloc(bytes.length));
  if (!data) throw new PdfiumRefused(false);
  new Uint8Array(x.memory.buffer).set(bytes, data);
  const doc = trap(() => x.FPDF_LoadMemDocument!(data, bytes.length, 0));
  if (!doc) {
    const password = x.FPDF_GetLastError!() === ERR_PASSWORD;
    x.free(data);
    throw new PdfiumRefused(password);
  }
  const scratch = x.malloc(64);
  const fontName = x.malloc(256);
  return {
    pageCount: trap(() => x.FPDF_GetPageCount!(doc)),
    pageText: (n) => trap(() => readPage(x, doc, n - 1, scratch, fontName)),
    imageCoverage: (n) => trap(() => coverage(x, doc, n - 1, scratch)),
    close() {
      try {
        x.FPDF_CloseDocument!(doc);
        x.free(scratch);
        x.free(fontName);
        x.free(data);
      } catch {
        engine.broken = true;
      }
      if (engine.broken || x.memory.buffer.byteLength > GROWN_BYTES) current = undefined;
    },
  };
}

function readPage(x: Exports, doc: number, index: number, scratch: number, fontName: number): PageText {
  const page = x.FPDF_LoadPage!(doc, index);
  if (!page) throw new Error(`PDFium could not load page ${index + 1}`);
  const text = x.FPDFText_LoadPage!(page);
  try {
    const width = x.FPDF_GetPageWidthF!(page);
    const height = x.FPDF_GetPageHeightF!(page);
    const view = visualFrame(x, page, width, height, scratch);
    return text ? pageRuns({ x, text, view, scratch, fontName, width, height }) : { width, height, items: [], rotated: [], controlChars: 0 };
  } finally {
    if (text) x.FPDFText_ClosePage!(text);
    x.FPDF_ClosePage!(page);
  }
}

/** Device pixels per point when the frame is measured: FPDF_PageToDevice answers in integers. */
const FRAME_SCALE = 64;

/** Page space (y up, unrotated) to the visual frame (y down, /Rotate applied), from three points. */
function visualFrame(x: Exports, page: number, width: number, height: number, scratch: number): Affine {
  const heap = () => new Int32Array(x.memory.buffer, scratch, 2);
  const at = (px: number, py: number) => {
    x.FPDF_PageToDevice!(page, 0, 0, Math.round(width * FRAME_SCALE), Math.round(height * FRAME_SCALE), 0, px, py, scratch, scratch + 4);
    const [dx, dy] = heap();
    return [dx! / FRAME_SCALE, dy! / FRAME_SCALE] as const;
  };
  const [ex, ey] = at(0, 0);
  const [ax, ay] = at(1000, 0);
  const [cx, cy] = at(0, 1000);
  return [(ax - ex) / 1000, (ay - ey) / 1000, (cx - ex) / 1000, (cy - ey) / 1000, ex, ey];
}


/** FPDFPageObj_GetType: an image, a form XObject. */
const IMAGE_OBJECT = 3;
const FORM_OBJECT = 5;

function coverage(x: Exports, doc: number, index: number, scratch: number): number {
  const page = x.FPDF_LoadPage!(doc, index);
  if (!page) return 0;
  try {
    const area = Math.abs(x.FPDF_GetPageWidthF!(page) * x.FPDF_GetPageHeightF!(page)) || 1;
    let largest = 0;
    for (let i = 0; i < x.FPDFPage_CountObjects!(page); i++) {
      const object = x.FPDFPage_GetObject!(page, i);
      // A form that holds an image counts with its own bounds (page space): its objects' are in the form's.
      if (holdsImage(x, object, 0) && x.FPDFPageObj_GetBounds!(object, scratch, scratch + 4, scratch + 8, scratch + 12)) {
        const [left, bottom, right, top] = new Float32Array(x.memory.buffer, scratch, 4) as unknown as [number, number, number, number];
        largest = Math.max(largest, Math.abs((right - left) * (top - bottom)));
      }
    }
    return Math.min(1, largest / area);
  } finally {
    x.FPDF_ClosePage!(page);
  }
}

function holdsImage(x: Exports, object: number, depth: number): boolean {
  const type = x.FPDFPageObj_GetType!(object);
  if (type === IMAGE_OBJECT) return true;
  if (type !== FORM_OBJECT || depth > 8) return false;
  for (let i = 0; i < x.FPDFFormObj_CountObjects!(object); i++) if (holdsImage(x, x.FPDFFormObj_GetObject!(object, i), depth + 1)) return true;
  return false;
}
