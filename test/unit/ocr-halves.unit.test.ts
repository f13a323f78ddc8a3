import test from 'ava';
import type { GrayImage } from '../../src/parsing/ocr/gray-image.ts';
import { cutRow, halves, joinHalves } from '../../src/parsing/ocr/ocr-halves.ts';
import { pageOfWords, type OcrWord } from '../../src/parsing/ocr/ocr-tsv.ts';

/** A white page with black rows where `ink` says (rows [from, to)). */
function page(width: number, height: number, ink: [number, number][]): GrayImage {
  const data = new Uint8Array(width * height).fill(255);
  for (const [from, to] of ink) data.fill(0, from * width, to * width);
  return { width, height, data };
}

/** Text lines 30 rows high every `pitch` rows, but for a paragraph gap at `gapAt`. */
function textPage(width: number, height: number, gapAt: number, gapRows: number, pitch = 42): GrayImage {
  const ink: [number, number][] = [];
  for (let y = 40; y + 30 < height - 40; y += pitch) {
    if (y + 30 > gapAt && y < gapAt + gapRows) continue;
    ink.push([y, y + 30]);
  }
  return page(width, height, ink);
}

const blankRow = (image: GrayImage, y: number) => image.data.subarray(y * image.width, (y + 1) * image.width).every((v) => v === 255);

test('the cut runs through the blank band nearest the middle of the page, so the halves take as long', (t) => {
  const image = textPage(1400, 2000, 1300, 80);
  const cut = cutRow(image)!;
  t.truthy(cut);
  // A gap between two lines: no ink on the cut row or near it.
  for (const y of [cut - 5, cut, cut + 5]) t.true(blankRow(image, y), `row ${y} is blank`);
  t.true(Math.abs(cut - 1000) <= 21, `cut at ${cut}, within half a line of the middle`);
});

test('lines set closer than a cut needs are cut at the paragraph gap, off the middle as it may be', (t) => {
  const image = textPage(1400, 2000, 1300, 80, 34);
  const cut = cutRow(image)!;
  t.true(cut > 1300 && cut < 1380, `cut at ${cut}`);
  t.true(blankRow(image, cut));
});

test('no cut on a small page, nor where no band of blank rows crosses the whole width', (t) => {
  t.is(cutRow(textPage(600, 800, 400, 80)), undefined, 'under a megapixel: read whole');
  // Lines 2 rows apart: every gap is narrower than a cut needs.
  const dense = page(1400, 1400, Array.from({ length: 700 }, (_, i) => [i * 2, i * 2 + 1] as [number, number]));
  t.is(cutRow(dense), undefined);
  // A vertical rule down the page: no row is blank.
  const ruled = textPage(1400, 2000, 1100, 80);
  for (let y = 0; y < 2000; y++) ruled.data.fill(0, y * 1400 + 700, y * 1400 + 710);
  t.is(cutRow(ruled), undefined);
});

test('a speck of dust does not stop a row counting as blank', (t) => {
  const image = textPage(1400, 2000, 1100, 80);
  for (let y = 1100; y < 1180; y++) image.data[y * 1400 + 300] = 0;
  t.truthy(cutRow(image));
});

test('each half keeps its rows and gets white rows on its cut edge', (t) => {
  const image = page(10, 100, [[0, 1], [99, 100]]);
  image.data[49 * 10] = 7;
  image.data[50 * 10] = 9;
  const [top, bottom] = halves(image, 50);
  t.is(top.width, 10);
  t.is(top.data[49 * 10], 7, 'the last row above the cut');
  t.true(top.data.subarray(50 * 10).every((v) => v === 255), 'white below it');
  t.is(top.height - 50, bottom.height - 50, 'the same padding on both');
  const pad = bottom.height - 50;
  t.true(bottom.data.subarray(0, pad * 10).every((v) => v === 255), 'white above the lower half');
  t.is(bottom.data[pad * 10], 9, 'then the first row below the cut');
  t.is(bottom.data[(bottom.height - 1) * 10], 0, 'down to the last row');
});

test('the halves read as one page: the lower words moved down to their place, their lines kept apart', (t) => {
  const word = (text: string, top: number, line: string): OcrWord => ({ text, left: 100, top, width: 80, height: 30, confidence: 90, line });
  const [upper] = halves(page(1000, 1200, []), 600);
  const lowerPad = upper.height - 600;
  const top = pageOfWords({ words: [word('Above', 100, '1.1.1')], lines: new Map([['1.1.1', { top: 100, height: 30 }]]), width: 1000, height: upper.height });
  const bottom = pageOfWords({ words: [word('Below', lowerPad + 20, '1.1.1')], lines: new Map([['1.1.1', { top: lowerPad + 20, height: 30 }]]), width: 1000, height: 600 + lowerPad });
  const joined = joinHalves(top, bottom, 600, 1000, 1200);
  t.deepEqual(joined.boxes!.words.map((w) => [w.text, w.top]), [['Above', 100], ['Below', 620]]);
  t.is(new Set(joined.boxes!.words.map((w) => w.line)).size, 2, 'both halves number their first line 1.1.1');
  t.is(joined.boxes!.lines.get(joined.boxes!.words[1]!.line)!.top, 620);
  t.deepEqual([joined.boxes!.width, joined.boxes!.height], [1000, 1200]);
  t.deepEqual(joined.paragraphs.map((p) => p.lines.map((l) => l.text)), [['Above'], ['Below']]);
});
