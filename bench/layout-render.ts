import { createCanvas, loadImage } from '@napi-rs/canvas';
import PDFDocument from 'pdfkit';
import type { GrayImage } from '../src/parsing/ocr/gray-image.ts';
import { openPdf } from '../src/parsing/pdf/pdf-open.ts';
import { renderPage } from '../src/parsing/pdf/pdf-render.ts';

/**
 * Generated pages turned into scans: each page rendered to gray pixels with the parser's own
 * renderer (200 dpi), saved as PNG, and the PNGs bound into an image-only PDF, so the same pages
 * reach OCR by the image upload path and by the scanned-PDF path.
 */

export function pngOf(image: GrayImage): Buffer {
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  const rgba = ctx.createImageData(image.width, image.height);
  for (let i = 0; i < image.data.length; i++) {
    const v = image.data[i]!;
    rgba.data.set([v, v, v, 255], i * 4);
  }
  ctx.putImageData(rgba, 0, 0);
  return canvas.toBuffer('image/png');
}

export async function renderPdfGray(pdf: Buffer, dpi = 200): Promise<GrayImage[]> {
  const doc = await openPdf(new Uint8Array(pdf), 30_000);
  try {
    const images: GrayImage[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      images.push(await renderPage(doc, page, { dpi, maxPixels: 20_000_000 }));
      page.cleanup();
    }
    return images;
  } finally {
    await doc.destroy();
  }
}

export const renderPdfPages = async (pdf: Buffer, dpi = 200): Promise<Buffer[]> => (await renderPdfGray(pdf, dpi)).map(pngOf);

/** An image-only PDF: each PNG fills a Letter page, with no text layer at all. */
export function imageOnlyPdf(pngs: readonly Buffer[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'LETTER', margin: 0, autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (const png of pngs) {
    doc.addPage({ size: 'LETTER', margin: 0 });
    doc.image(png, 0, 0, { width: 612, height: 792 });
  }
  doc.end();
  return done;
}

/** A page as photographed: turned by a few degrees on a white ground, the way a phone sees it. */
export async function turned(png: Buffer, degrees: number): Promise<Buffer> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, image.width, image.height);
  ctx.translate(image.width / 2, image.height / 2);
  ctx.rotate((degrees * Math.PI) / 180);
  ctx.drawImage(image, -image.width / 2, -image.height / 2);
  return canvas.toBuffer('image/png');
}
