import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { fitFactor, grayFromRgba, type GrayImage } from '../ocr/gray-image.ts';

/**
 * A page rendered to gray pixels for OCR. 200 dpi reads body text as well as 300 dpi here and
 * costs less (measured on the shared scans); the pixel bound keeps posters and oversized pages
 * from allocating hundreds of megabytes.
 */

export type RenderOptions = { dpi: number; maxPixels: number };

export const OCR_RENDER: RenderOptions = { dpi: 200, maxPixels: 8_000_000 };

/** What pdf.js hands out for canvases: in Node, its own @napi-rs/canvas, whose Path2D it uses. */
type CanvasAndContext = {
  canvas: HTMLCanvasElement;
  context: CanvasRenderingContext2D;
};
type CanvasFactory = { create(width: number, height: number): CanvasAndContext; destroy(cc: CanvasAndContext): void };

export async function renderPage(doc: PDFDocumentProxy, page: PDFPageProxy, options: RenderOptions = OCR_RENDER): Promise<GrayImage> {
  const base = page.getViewport({ scale: 1 });
  const scale = (options.dpi / 72) * fitFactor(base.width * (options.dpi / 72), base.height * (options.dpi / 72), options.maxPixels);
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.floor(viewport.width));
  const height = Math.max(1, Math.floor(viewport.height));
  // Use the document's canvas factory: a canvas from another copy of @napi-rs/canvas would not
  // accept the Path2D objects pdf.js draws with.
  const factory = doc.canvasFactory as CanvasFactory;
  const target = factory.create(width, height);
  try {
    await page.render({ canvas: target.canvas, canvasContext: target.context, viewport, background: '#ffffff' }).promise;
    const pixels = target.context.getImageData(0, 0, width, height);
    return grayFromRgba(pixels.data, width, height);
  } finally {
    factory.destroy(target);
  }
}
