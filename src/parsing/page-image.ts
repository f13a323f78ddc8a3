import { readFile } from 'node:fs/promises';
import { type Canvas, createCanvas, ImageData, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageImageOutcome, PageImageRequest } from '../ports/page-renderer.ts';
import { checkDimensions } from './ocr/image-decode.ts';
import { openPdf } from './pdf/pdf-open.ts';
import { openTiff } from './ocr/tiff.ts';
import { MEDIA_TYPES } from './types.ts';

/**
 * A page as a reader sees it, with the cited lines marked: PDF pages drawn by pdf.js, scans as
 * their own pixels. Formats whose pages need a layout engine we do not have (PPTX slides, Word)
 * are refused rather than drawn as something they are not.
 */

/** Translucent yellow, as a highlighter pen: the words stay readable under it. */
const FILL = 'rgba(255, 205, 0, 0.38)';
const STROKE = 'rgba(230, 140, 0, 0.9)';
const OPEN_TIMEOUT_MS = 10_000;

type Drawn = { canvas: Canvas; context: SKRSContext2D };

export async function renderPageImage(request: PageImageRequest): Promise<PageImageOutcome> {
  const { mediaType } = request;
  if (mediaType === MEDIA_TYPES.pdf) return await renderPdfPage(request);
  if (mediaType === MEDIA_TYPES.png || mediaType === MEDIA_TYPES.jpeg || mediaType === MEDIA_TYPES.tiff) return await renderScan(request);
  return { ok: false, code: 'page_image_unavailable', message: `Pages of ${mediaType} files cannot be drawn here; only PDF and image (PNG, JPEG, TIFF) pages can.` };
}

async function renderPdfPage(request: PageImageRequest): Promise<PageImageOutcome> {
  const doc = await openPdf(new Uint8Array(await readFile(request.path)), OPEN_TIMEOUT_MS);
  try {
    if (request.page > doc.numPages) return outOfRange(request.page, doc.numPages);
    const page = await doc.getPage(request.page);
    const base = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: request.width / base.width });
    const width = Math.max(1, Math.round(viewport.width));
    const height = Math.max(1, Math.round(viewport.height));
    const drawn = await withPdfCanvas(doc, width, height, async (target) => {
      await page.render({ canvas: target.canvas, canvasContext: target.context, viewport, background: '#ffffff' }).promise;
      return target.context.getImageData(0, 0, width, height);
    });
    const out = blank(width, height);
    // Pixels from pdf.js's copy of the canvas module: rewrapped, as napi checks the class.
    out.context.putImageData(new ImageData(new Uint8ClampedArray(drawn.data), width, height), 0, 0);
    return finish(out, request);
  } finally {
    await doc.destroy();
  }
}

type CanvasFactory = { create(w: number, h: number): { canvas: HTMLCanvasElement; context: CanvasRenderingContext2D }; destroy(cc: unknown): void };

/** pdf.js draws with its own canvas factory (its Path2D objects only work there); the pixels are copied out. */
async function withPdfCanvas<T>(doc: PDFDocumentProxy, width: number, height: number, draw: (target: ReturnType<CanvasFactory['create']>) => Promise<T>) {
  const factory = doc.canvasFactory as CanvasFactory;
  const target = factory.create(width, height);
  try {
    return await draw(target);
  } finally {
    factory.destroy(target);
  }
}

async function renderScan(request: PageImageRequest): Promise<PageImageOutcome> {
  const bytes = await readFile(request.path);
  if (request.mediaType === MEDIA_TYPES.tiff) {
    const tiff = openTiff(bytes);
    if (request.page > tiff.count) return outOfRange(request.page, tiff.count);
    const gray = tiff.page(request.page - 1);
    const source = blank(gray.width, gray.height);
    const rgba = new Uint8ClampedArray(gray.width * gray.height * 4);
    gray.data.forEach((v, i) => rgba.set([v, v, v, 255], i * 4));
    source.context.putImageData(new ImageData(rgba, gray.width, gray.height), 0, 0);
    return finish(scaled(source.canvas, gray.width, gray.height, request.width), request);
  }
  if (request.page > 1) return outOfRange(request.page, 1);
  const image = await loadImage(bytes);
  checkDimensions(image.width, image.height);
  return finish(scaled(image, image.width, image.height, request.width), request);
}

function scaled(source: Parameters<SKRSContext2D['drawImage']>[0], width: number, height: number, targetWidth: number): Drawn {
  const out = blank(targetWidth, Math.max(1, Math.round((height * targetWidth) / width)));
  out.context.drawImage(source, 0, 0, out.canvas.width, out.canvas.height);
  return out;
}

function blank(width: number, height: number): Drawn {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  return { canvas, context };
}

/** The highlight, a little wider than the line boxes so ascenders and descenders sit inside it. */
function finish({ canvas, context }: Drawn, request: PageImageRequest): PageImageOutcome {
  const { width, height } = canvas;
  const pad = Math.max(1, Math.round(width / 400));
  for (const box of request.highlight) {
    const x = box.x0 * width - pad;
    const y = box.y0 * height - pad;
    const w = (box.x1 - box.x0) * width + 2 * pad;
    const h = (box.y1 - box.y0) * height + 2 * pad;
    context.fillStyle = FILL;
    context.fillRect(x, y, w, h);
    context.strokeStyle = STROKE;
    context.lineWidth = 1;
    context.strokeRect(x, y, w, h);
  }
  return { ok: true, png: canvas.toBuffer('image/png'), width, height };
}

const outOfRange = (page: number, count: number): PageImageOutcome => ({
  ok: false,
  code: 'page_out_of_range',
  message: `The document has ${count} page${count === 1 ? '' : 's'}; there is no page ${page}.`,
});
