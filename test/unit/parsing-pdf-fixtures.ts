import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import PDFDocument from 'pdfkit';
import { DEFAULT_LIMITS, type MediaType, type ParseInput, type ParseLimits } from '../../src/parsing/types.ts';
import { wordsAccuracy } from '../../bench/layout-metrics.ts';

/**
 * Documents for the PDF and image parser tests, generated on the fly (pdfkit, @napi-rs/canvas and
 * a minimal TIFF writer) so the tests need no binary fixtures and say what each file contains.
 */

export function parseInput(path: string, mediaType: MediaType, limits: Partial<ParseLimits> = {}, onProgress?: ParseInput['onProgress']): ParseInput {
  return { path, fileName: path.split('/').pop()!, mediaType, limits: { ...DEFAULT_LIMITS, ...limits }, onProgress };
}

export function writeFixture(dir: string, name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

export function pdf(build: (doc: PDFKit.PDFDocument) => void, options: PDFKit.PDFDocumentOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'LETTER', margin: 50, ...options });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  build(doc);
  doc.end();
  return done;
}

const sentences = (topic: string, count: number) =>
  Array.from({ length: count }, (_, i) => `Sentence ${i + 1} of the ${topic} column keeps talking about ${topic}.`).join(' ');

export const LEFT_TOPIC = 'apples';
export const RIGHT_TOPIC = 'rivers';
export const COLUMN_TOPICS = ['apples', 'rivers', 'clouds'];

/** A title across the page over two or three justified columns of text, each on its own topic. */
export const columnsPdf = (topics: string[], sentencesPerColumn = 24) =>
  pdf((doc) => {
    const gap = 20;
    const width = (512 - gap * (topics.length - 1)) / topics.length;
    doc.font('Helvetica-Bold').fontSize(20).text('Columns Side By Side', 50, 60, { width: 512, align: 'center' });
    doc.font('Helvetica').fontSize(topics.length > 2 ? 9 : 10);
    topics.forEach((topic, i) => doc.text(sentences(topic, sentencesPerColumn), 50 + i * (width + gap), 120, { width, align: 'justify' }));
  });

export const twoColumnPdf = () => columnsPdf([LEFT_TOPIC, RIGHT_TOPIC]);

export const TABLE = [
  ['Region', 'Sales', 'Units'],
  ['West', '12', '3'],
  ['East', '40', '7'],
  ['North', '5', '1'],
];

/** A heading, a paragraph, then a table with a bold header row. */
export const tablePdf = () =>
  pdf((doc) => {
    doc.font('Helvetica-Bold').fontSize(16).text('Quarterly Figures', 72, 72);
    doc.font('Helvetica').fontSize(10).text('The table below lists sales and units by region for the quarter.', 72, 100, { width: 460 });
    TABLE.forEach((row, r) => {
      doc.font(r === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
      row.forEach((cell, c) => doc.text(cell, 72 + c * 150, 140 + r * 18, { lineBreak: false }));
    });
    doc.font('Helvetica').fontSize(10).text('Figures are provisional until the audit closes.', 72, 240, { width: 460 });
  });

/** Three pages, each with a chapter heading, its own paragraph and the same running footer. */
export const multiPagePdf = () =>
  pdf((doc) => {
    for (let n = 1; n <= 3; n++) {
      if (n > 1) doc.addPage();
      doc.font('Helvetica-Bold').fontSize(18).text(`Chapter ${n}`, 72, 72);
      doc.font('Helvetica').fontSize(11).text(`This is the body of page ${n}, written about topic number ${n} in plain sentences.`, 72, 110, { width: 460 });
      doc.fontSize(8).text(`Company Confidential - page ${n}`, 72, 740, { lineBreak: false });
    }
  });

const fontPath = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf');
let fontRegistered = false;

/** Black text drawn on white pixels; the font ships with pdfjs-dist, so no system font is needed. */
export function textImage(lines: readonly string[], { width = 1275, height = 1650, px = 44, left = 100, top = 150, leading = 1.6 } = {}): { png: Buffer; gray: Uint8Array; width: number; height: number } {
  if (!fontRegistered) fontRegistered = !!GlobalFonts.registerFromPath(fontPath, 'FixtureSans');
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000000';
  ctx.font = `${px}px FixtureSans`;
  lines.forEach((line, i) => ctx.fillText(line, left, top + i * px * leading));
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = rgba[i * 4]!;
  return { png: canvas.toBuffer('image/png'), gray, width, height };
}

export const SCAN_LINES = ['The quick brown fox jumps over', 'the lazy dog near the riverbank', 'while seven wizards quietly watch.'];

/** A page that is only an image of text: no text layer, so only OCR can read it. */
export const imageOnlyPdf = () => {
  const { png } = textImage(SCAN_LINES);
  return pdf((doc) => doc.image(png, 0, 0, { width: 612, height: 792 }));
};

/** Uncompressed TIFF, one strip per page: 8-bit BlackIsZero or 1-bit WhiteIsZero (fax style). */
export function tiff(pages: { width: number; height: number; gray: Uint8Array; bits: 1 | 8 }[]): Buffer {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(8);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  header.writeUInt32LE(8, 4);
  parts.push(header);
  let offset = 8;
  pages.forEach((page, index) => {
    const pixels = page.bits === 8 ? Buffer.from(page.gray) : packBits(page);
    const entries: [number, number, number][] = [
      [256, 4, page.width],
      [257, 4, page.height],
      [258, 3, page.bits],
      [259, 3, 1],
      [262, 3, page.bits === 1 ? 0 : 1],
      [273, 4, 0],
      [277, 3, 1],
      [278, 4, page.height],
      [279, 4, pixels.length],
    ];
    const ifdSize = 2 + entries.length * 12 + 4;
    const dataOffset = offset + ifdSize;
    const ifd = Buffer.alloc(ifdSize);
    ifd.writeUInt16LE(entries.length, 0);
    entries.forEach(([tag, type, value], i) => {
      const at = 2 + i * 12;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(1, at + 4);
      if (type === 3) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(tag === 273 ? dataOffset : value, at + 8);
    });
    const next = index < pages.length - 1 ? dataOffset + pixels.length : 0;
    ifd.writeUInt32LE(next, ifdSize - 4);
    parts.push(ifd, pixels);
    offset = dataOffset + pixels.length;
  });
  return Buffer.concat(parts);
}

function packBits({ width, height, gray }: { width: number; height: number; gray: Uint8Array }): Buffer {
  const rowBytes = Math.ceil(width / 8);
  const out = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (gray[y * width + x]! < 128) out[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
  }
  return out;
}

/** 1 − word-level edit distance / reference words, after lowercasing and dropping punctuation. */
export function wordAccuracy(reference: string, hypothesis: string): number {
  const words = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').split(/\s+/).filter(Boolean);
  return wordsAccuracy(words(reference), words(hypothesis));
}
