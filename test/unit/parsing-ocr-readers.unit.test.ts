import { readFileSync } from 'node:fs';
import test from 'ava';
import { straightened } from '../../src/parsing/ocr/deskew.ts';
import { darkOnLight, sizeForOcr } from '../../src/parsing/ocr/gray-image.ts';
import { decodePngOrJpeg } from '../../src/parsing/ocr/image-decode.ts';
import { createOcrEngine } from '../../src/parsing/ocr/ocr.ts';
import { pageText } from '../../src/parsing/ocr/ocr-auto.ts';
import { ocrBlocks, ocrText } from '../../src/parsing/ocr/ocr-blocks.ts';
import { cutRow } from '../../src/parsing/ocr/ocr-halves.ts';
import { pickLane } from '../../src/parsing/ocr/ocr-workers.ts';
import { openTiff } from '../../src/parsing/ocr/tiff.ts';
import { samplePage } from '../helpers/ocr-pages.ts';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';
import { wordAccuracy } from './parsing-pdf-fixtures.ts';

/**
 * tesseract.js with two readers (two workers, one a core) against one: a large page read in
 * halves at once, and a page's languages two at a time, must read as the page read whole.
 */

const lane = (busy: number, ...keys: string[]) => ({ busy, pool: { holds: (key: string) => keys.includes(key) } });

test('a reading goes to a free lane holding its models, else to any free lane, else to the least busy', (t) => {
  const [english, german] = [lane(0, 'eng'), lane(0, 'deu+eng')];
  t.is(pickLane([english, german], 'deu+eng'), german);
  t.is(pickLane([english, german], 'eng'), english);
  t.is(pickLane([english, german], 'fra+eng'), english, 'a switch of models on the first free lane');
  const [reading, free] = [lane(1, 'eng'), lane(0, 'deu+eng')];
  t.is(pickLane([reading, free], 'eng'), free, 'the other half of a page goes beside the first');
  const [twice, once] = [lane(2, 'eng'), lane(1, 'eng')];
  t.is(pickLane([twice, once], 'eng'), once);
});

test('script detection always runs on the first lane, so one legacy-engine worker at most exists', (t) => {
  const [first, second] = [lane(1, 'eng'), lane(0)];
  t.is(pickLane([first, second], 'osd'), first);
});

const engines = { one: createOcrEngine({ engine: 'wasm', readers: 1 }), two: createOcrEngine({ engine: 'wasm', readers: 2 }) };
test.after.always(() => Promise.all([engines.one.close(), engines.two.close()]));

test.serial('a large page read in halves by two workers reads as the page read whole by one', async (t) => {
  const lines = [
    'Invoices are due within thirty days of receipt.',
    'Late payments carry a charge of two percent a month.',
    'Goods remain our property until they are paid for.',
    'Claims for damage must reach us within a week.',
    'The quick brown fox jumps over the lazy dog.',
    'Orders above one hundred pounds travel free of charge.',
    'Our office is closed on public holidays and weekends.',
    'Prices include value added tax at the standard rate.',
    'Returns are accepted within fourteen days of delivery.',
    'Questions about this invoice go to the accounts team.',
  ];
  const { image } = samplePage(lines);
  t.true(image.width * image.height >= 1_000_000);
  t.truthy(cutRow(straightened(darkOnLight(image))), 'the page has a blank band to be cut at');
  const whole = await engines.one.recognize(image, { languages: ['eng'] });
  const halves = await engines.two.recognize(image, { languages: ['eng'] });
  // As a document holds it, laid out from the words' boxes: the same text. tesseract's own
  // paragraphs may differ (a cut through one leaves two), its words may not.
  t.is(ocrText(ocrBlocks(halves)), ocrText(ocrBlocks(whole)));
  const words = (page: typeof whole) => pageText(page).split(/\s+/);
  t.deepEqual(words(halves), words(whole));
  t.true(wordAccuracy(lines.join(' '), pageText(halves)) >= 0.95, pageText(halves));
});

withSharedData(test, 'two OCR readers on the shared scans', () => {
  // Six languages, found sentence by sentence and read two at a time; a low-resolution scan in halves.
  for (const name of ['eurotext.tif', 'layout-parser-paper-with-table.jpg']) {
    test.serial(`scanned/${name} reads nearly the same with two readers as with one`, async (t) => {
      const bytes = readFileSync(sharedDoc('scanned', name));
      const image = sizeForOcr(await (name.endsWith('.tif') ? openTiff(bytes).page(0) : decodePngOrJpeg(bytes)));
      const one = pageText(await engines.one.recognize(image));
      const two = pageText(await engines.two.recognize(image));
      const agreement = wordAccuracy(one, two);
      t.log(`word agreement, two readers against one: ${(agreement * 100).toFixed(1)}%`);
      t.true(agreement >= 0.97);
    });
  }
});
