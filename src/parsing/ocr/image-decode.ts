import { createCanvas, loadImage } from '@napi-rs/canvas';
import { grayFromRgba, type GrayImage } from './gray-image.ts';
import { ParseFailure } from '../types.ts';

/**
 * PNG and JPEG to gray pixels, decoded by @napi-rs/canvas (Skia). The dimensions are read from
 * the file's header first, so an image that would need gigabytes once decoded (a "pixel bomb")
 * is refused before any allocation.
 */

/** 40 Mpx: a letter page scanned at 700 dpi; beyond this, decoding alone (4 bytes a pixel) takes more memory than a parse may. */
export const MAX_DECODED_PIXELS = 40_000_000;

export function checkDimensions(width: number, height: number) {
  if (!(width > 0 && height > 0)) throw new ParseFailure('corrupt', 'The image has no pixels.');
  if (width * height > MAX_DECODED_PIXELS) {
    throw new ParseFailure('resource_limit', `The image is ${width}×${height} pixels; at most ${MAX_DECODED_PIXELS / 1e6} Mpx are decoded.`);
  }
}

export async function decodePngOrJpeg(bytes: Buffer): Promise<GrayImage> {
  const size = headerSize(bytes);
  if (!size) throw new ParseFailure('corrupt', 'The image header is damaged.');
  checkDimensions(size.width, size.height);
  let image;
  try {
    image = await loadImage(bytes);
  } catch (error) {
    throw new ParseFailure('corrupt', `The image could not be decoded: ${(error as Error).message}`);
  }
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return grayFromRgba(context.getImageData(0, 0, image.width, image.height).data, image.width, image.height);
}

function headerSize(b: Buffer): { width: number; height: number } | undefined {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b[0] === 0xff && b[1] === 0xd8) return jpegSize(b);
  return undefined;
}

/** Walks the JPEG markers to the first frame header (SOF0–SOF15, except DHT, JPG and DAC). */
function jpegSize(b: Buffer): { width: number; height: number } | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    const standalone = marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);
    i += standalone ? 2 : 2 + b.readUInt16BE(i + 2);
  }
  return undefined;
}
