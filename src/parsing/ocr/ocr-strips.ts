import type { GrayImage } from './gray-image.ts';
import { cropGray, type Region } from './ocr-region.ts';
import type { OcrPage, OcrWord } from './ocr-tsv.ts';

/**
 * Some lines of a page cut out and stacked into one image, so that one reading (and one script
 * detection) covers them all: a page's Korean lines between English ones are read together,
 * without the English lines around them, at the cost of their own pixels only. Each strip sits
 * on white, apart from the next, as tesseract reads a line touching another or the edge poorly.
 */

export type Stacked = { image: GrayImage; strips: { region: Region; top: number }[] };

/**
 * White around the strips and between them, as tall as the tallest strip: with a narrower margin
 * (24 px around 53 px strips) tesseract's page segmentation left the first strip unread.
 */
const whiteOf = (regions: readonly Region[]) => Math.max(24, ...regions.map((r) => r.height));

export function stackRegions(page: GrayImage, regions: readonly Region[]): Stacked {
  const white = whiteOf(regions);
  const width = Math.max(...regions.map((r) => r.width)) + 2 * white;
  const strips: Stacked['strips'] = [];
  let height = white;
  for (const region of regions) {
    strips.push({ region, top: height });
    height += region.height + white;
  }
  const data = new Uint8Array(width * height).fill(255);
  strips.forEach(({ region, top }) => {
    const crop = cropGray(page, region);
    for (let y = 0; y < crop.height; y++) data.set(crop.data.subarray(y * crop.width, (y + 1) * crop.width), (top + y) * width + white);
  });
  return { image: { width, height, data }, strips };
}

/**
 * A reading of a stacked image as the words of each strip, placed where the strip came from on
 * the page: a word belongs to the strip its centre is nearest to.
 */
export function wordsByStrip(reading: OcrPage, stacked: Stacked): OcrWord[][] {
  const white = whiteOf(stacked.strips.map((s) => s.region));
  const byStrip: OcrWord[][] = stacked.strips.map(() => []);
  for (const word of reading.boxes?.words ?? []) {
    const middle = word.top + word.height / 2;
    const distance = (s: Stacked['strips'][number]) => Math.abs(s.top + s.region.height / 2 - middle);
    const index = stacked.strips.reduce((best, s, i) => (distance(s) < distance(stacked.strips[best]!) ? i : best), 0);
    const { region, top } = stacked.strips[index]!;
    byStrip[index]!.push({ ...word, left: word.left - white + region.left, top: word.top - top + region.top });
  }
  return byStrip.map((words) => words.sort((a, b) => a.left - b.left));
}
