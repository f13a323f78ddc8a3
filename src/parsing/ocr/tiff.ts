import UTIF from 'utif2';
import { grayFromRgba, type GrayImage } from './gray-image.ts';
import { checkDimensions } from './image-decode.ts';
import { ParseFailure } from '../types.ts';

/**
 * TIFF pages with utif2: every full-resolution image directory is a page (fax and scanner
 * output is often multi-page and 1-bit). Directories are listed without decoding, so the page
 * count is known up front, and each page is decoded only when it is read.
 */

export type TiffPages = { count: number; page(index: number): GrayImage };

/** NewSubfileType bit 0: a reduced-resolution copy (a thumbnail), not a page. */
const REDUCED_RESOLUTION = 1;

export function openTiff(bytes: Buffer): TiffPages {
  let directories: UTIF.IFD[];
  try {
    directories = UTIF.decode(bytes);
  } catch (error) {
    throw new ParseFailure('corrupt', `The TIFF file could not be read: ${(error as Error).message}`);
  }
  const pages = directories.filter((ifd) => {
    const subfile = Number(first(ifd['t254']) ?? 0);
    return first(ifd['t256']) !== undefined && first(ifd['t257']) !== undefined && (subfile & REDUCED_RESOLUTION) === 0;
  });
  return {
    count: pages.length,
    page(index) {
      const ifd = pages[index]!;
      checkDimensions(Number(first(ifd['t256'])), Number(first(ifd['t257'])));
      try {
        UTIF.decodeImage(bytes, ifd);
        const gray = grayFromRgba(UTIF.toRGBA8(ifd), ifd.width, ifd.height);
        // The decoded raster stays on the directory otherwise; a long fax would hold every page.
        ifd.data = new Uint8Array(0);
        return gray;
      } catch (error) {
        throw new ParseFailure('corrupt', `TIFF page ${index + 1} could not be decoded: ${(error as Error).message}`);
      }
    },
  };
}

const first = (tag: unknown): unknown => (Array.isArray(tag) ? tag[0] : tag);
