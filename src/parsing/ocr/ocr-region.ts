import type { GrayImage } from './gray-image.ts';
import { pageOfWords, type OcrPage, type OcrWord } from './ocr-tsv.ts';

/** A rectangle of a page image, in pixels. */
export type Region = { left: number; top: number; width: number; height: number };

/**
 * The region around some words, padded by their tallest word's height on every side (tesseract
 * reads a line touching the image's edge poorly), within the image.
 */
export function regionAround(words: readonly OcrWord[], imageWidth: number, imageHeight: number): Region | undefined {
  if (!words.length) return undefined;
  const pad = Math.max(...words.map((w) => w.height));
  const left = Math.max(0, Math.min(...words.map((w) => w.left)) - pad);
  const top = Math.max(0, Math.min(...words.map((w) => w.top)) - pad);
  const right = Math.min(imageWidth, Math.max(...words.map((w) => w.left + w.width)) + pad);
  const bottom = Math.min(imageHeight, Math.max(...words.map((w) => w.top + w.height)) + pad);
  return { left, top, width: right - left, height: bottom - top };
}

export function cropGray(image: GrayImage, region: Region): GrayImage {
  const data = new Uint8Array(region.width * region.height);
  for (let y = 0; y < region.height; y++) {
    const from = (region.top + y) * image.width + region.left;
    data.set(image.data.subarray(from, from + region.width), y * region.width);
  }
  return { width: region.width, height: region.height, data };
}

/** A reading of a region as a reading of the whole page: its words moved to where the region sits. */
export function placeOnPage(page: OcrPage, region: Region, pageWidth: number, pageHeight: number): OcrPage {
  if (!page.boxes) return page;
  const words = page.boxes.words.map((w) => ({ ...w, left: w.left + region.left, top: w.top + region.top }));
  const lines = new Map([...page.boxes.lines].map(([key, line]) => [key, { ...line, top: line.top + region.top }]));
  return pageOfWords({ words, lines, width: pageWidth, height: pageHeight });
}
