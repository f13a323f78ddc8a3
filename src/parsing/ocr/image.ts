import { readFile } from 'node:fs/promises';
import { createBlockBuilder } from '../block-builder.ts';
import { isBlank, sizeForOcr, type GrayImage } from './gray-image.ts';
import { decodePngOrJpeg } from './image-decode.ts';
import { OcrTimeout, threadOcr, type OcrEngine } from './ocr.ts';
import { readOcrPage, withoutRunningLines, type OcrRead } from './ocr-blocks.ts';
import { openTiff } from './tiff.ts';
import { MEDIA_TYPES, ParseFailure, type MediaType, type Parser } from '../types.ts';

/**
 * Images (PNG, JPEG, TIFF with any number of pages, 1-bit included): every page is read by OCR,
 * in reading order (ocr-layout.ts), without the running lines a multi-page scan repeats.
 */

export type ImageParserOptions = { ocr?: OcrEngine };

type Pages = { mediaType: MediaType; count: number; page(index: number): GrayImage | Promise<GrayImage> };

export function createImageParser({ ocr = threadOcr }: ImageParserOptions = {}): Parser {
  return async (input) => {
    const pages = openImage(await readFile(input.path));
    if (pages.count === 0) throw new ParseFailure('corrupt', 'The TIFF file has no image in it.');
    if (pages.count > input.limits.maxPages) {
      throw new ParseFailure('too_large', `The image has ${pages.count} pages; the limit is ${input.limits.maxPages}.`);
    }
    if (!input.limits.ocr) throw new ParseFailure('empty', 'The file is an image and OCR is off, so there is no text to read.');
    const builder = createBlockBuilder();
    const warnings: string[] = [];
    const ocrPages: number[] = [];
    let timedOut = false;
    const reads: OcrRead[] = [];
    for (let i = 0; i < pages.count; i++) {
      const n = i + 1;
      const image = sizeForOcr(await pages.page(i));
      let read: OcrRead = { blocks: [] };
      try {
        if (!isBlank(image)) read = readOcrPage(await ocr.recognize(image, { languages: input.ocrLanguages }));
      } catch (error) {
        if (!(error instanceof OcrTimeout)) throw error;
        timedOut = true;
        warnings.push(`page ${n}: ${error.message}`);
      }
      if (read.blocks.length) ocrPages.push(n);
      else if (pages.count > 1) warnings.push(`page ${n}: OCR found no text`);
      reads.push(read);
      input.onProgress?.(n, pages.count);
    }
    // A multi-page scan (a fax, a scanned report) repeats its running header and footer.
    withoutRunningLines(reads).forEach((blocks, i) => {
      for (const block of blocks) builder.add('paragraph', block.text, i + 1, undefined, block.boxes);
    });
    if (builder.count === 0 && timedOut) throw new ParseFailure('timeout', 'OCR of the image did not finish in time.');
    if (builder.count === 0) throw new ParseFailure('empty', 'OCR found no text in the image.');
    const doc = builder.finish({ mediaType: pages.mediaType, pageCount: pages.count, warnings, limits: input.limits });
    return { ...doc, ocrPages };
  };
}

export const parseImage: Parser = createImageParser();

/** The bytes decide the format, whatever the upload claimed. */
function openImage(bytes: Buffer): Pages {
  const head = bytes.subarray(0, 4).toString('latin1');
  if (head === 'II*\0' || head === 'MM\0*') return { mediaType: MEDIA_TYPES.tiff, ...openTiff(bytes) };
  const png = bytes.length > 8 && bytes.readUInt32BE(0) === 0x89504e47;
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!png && !jpeg) throw new ParseFailure('corrupt', 'The file is not a PNG, JPEG or TIFF image.');
  return { mediaType: png ? MEDIA_TYPES.png : MEDIA_TYPES.jpeg, count: 1, page: () => decodePngOrJpeg(bytes) };
}
