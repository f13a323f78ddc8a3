import type { GrayImage } from './gray-image.ts';
import { placeOnPage } from './ocr-region.ts';
import { pageOfWords, type OcrPage } from './ocr-tsv.ts';

/**
 * A large page read as two halves at once, one per core: tesseract reads one page on one core
 * (its OpenMP threads gained nothing here, ocr-native.ts), and a dense page is over a second of
 * LSTM work. The cut runs along blank rows between lines, so no line is split; the words keep
 * their places on the page, and the layout (ocr-layout.ts) orders them from their boxes as it
 * would a reading of the whole page, so a paragraph cut in two is joined again there.
 */

/** Smaller pages are read whole: a second reading's own costs eat what half the page saves. */
const MIN_PIXELS = 1_000_000;
/** The cut is looked for in this middle part of the page's height. */
const SEARCH_FROM = 0.3;
const SEARCH_TO = 0.7;
const DARK = 128;
/** Rows with at most one dark pixel in this many count as blank (specks of a scan). */
const SPECK_SHARE = 500;
/** A blank band narrower than this may be the gap inside a line (accents, descenders): no cut. */
const MIN_GAP_ROWS = 6;
/** White rows put on each half's cut edge: tesseract reads a line touching the image's edge poorly. */
const PAD_ROWS = 16;

/**
 * The row to cut at: the middle of the blank band nearest the page's middle, so that the two
 * halves take about as long (the page is read when the longer is); none when no band is there.
 */
export function cutRow(image: GrayImage): number | undefined {
  const { width, height, data } = image;
  if (width * height < MIN_PIXELS) return undefined;
  const specks = Math.max(1, Math.floor(width / SPECK_SHARE));
  const from = Math.floor(height * SEARCH_FROM);
  const to = Math.floor(height * SEARCH_TO);
  const offCentre = (row: number) => Math.abs(row - height / 2);
  let best: number | undefined;
  let start = -1;
  for (let y = from; y <= to; y++) {
    const blank = y < to && darkPixels(data, y * width, width, specks) <= specks;
    if (blank && start < 0) start = y;
    if (!blank && start >= 0) {
      const middle = start + Math.floor((y - start) / 2);
      if (y - start >= MIN_GAP_ROWS && (best === undefined || offCentre(middle) < offCentre(best))) best = middle;
      start = -1;
    }
  }
  return best;
}

/** Dark pixels of one row, counted only until there are more than `limit`. */
function darkPixels(data: Uint8Array, offset: number, width: number, limit: number): number {
  let dark = 0;
  for (let x = 0; x < width && dark <= limit; x++) if (data[offset + x]! < DARK) dark++;
  return dark;
}

/** The rows above `cut` and below it, each padded with white on its cut edge. */
export function halves(image: GrayImage, cut: number): [GrayImage, GrayImage] {
  const { width, height, data } = image;
  const top = new Uint8Array(width * (cut + PAD_ROWS)).fill(255);
  top.set(data.subarray(0, cut * width));
  const bottom = new Uint8Array(width * (height - cut + PAD_ROWS)).fill(255);
  bottom.set(data.subarray(cut * width), PAD_ROWS * width);
  return [
    { width, height: cut + PAD_ROWS, data: top },
    { width, height: height - cut + PAD_ROWS, data: bottom },
  ];
}

/**
 * The two halves' readings as one reading of the page. Tesseract numbers each reading's lines
 * from 1.1.1, so the lower half's line keys get a prefix of their own.
 */
export function joinHalves(top: OcrPage, bottom: OcrPage, cut: number, width: number, height: number): OcrPage {
  if (!top.boxes || !bottom.boxes) return { paragraphs: [...top.paragraphs, ...bottom.paragraphs] };
  const placed = placeOnPage(bottom, { left: 0, top: cut - PAD_ROWS, width, height: height - cut + PAD_ROWS }, width, height).boxes!;
  const rename = (key: string) => `lower:${key}`;
  return pageOfWords({
    words: [...top.boxes.words, ...placed.words.map((w) => ({ ...w, line: rename(w.line) }))],
    lines: new Map([...top.boxes.lines, ...[...placed.lines].map(([key, line]) => [rename(key), line] as const)]),
    width,
    height,
  });
}
