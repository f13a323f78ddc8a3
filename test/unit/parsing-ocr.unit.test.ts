import test from 'ava';
import { parseImage } from '../../src/parsing/ocr/image.ts';
import { closeOcr } from '../../src/parsing/ocr/ocr.ts';
import { readTsv } from '../../src/parsing/ocr/ocr-tsv.ts';
import { parsePdf } from '../../src/parsing/pdf/pdf.ts';
import { joinLines } from '../../src/parsing/language/text-join.ts';
import { textQuality } from '../../src/parsing/language/text-quality.ts';
import { MEDIA_TYPES, ParseFailure } from '../../src/parsing/types.ts';
import { tempDir } from '../helpers/temp.ts';
import { imageOnlyPdf, parseInput, SCAN_LINES, textImage, tiff, wordAccuracy, writeFixture } from './parsing-pdf-fixtures.ts';

const dir = tempDir('kbqa-parsing-ocr-');
test.after.always(async () => {
  dir.remove();
  await closeOcr();
});

const scanText = SCAN_LINES.join(' ');
const textOf = (doc: { blocks: { text: string }[] }) => doc.blocks.map((b) => b.text).join('\n');

test('an image-only PDF page is read by OCR and listed in ocrPages', async (t) => {
  const doc = await parsePdf(parseInput(writeFixture(dir.path, 'scan.pdf', await imageOnlyPdf()), MEDIA_TYPES.pdf));
  t.deepEqual(doc.ocrPages, [1]);
  t.is(doc.pageCount, 1);
  t.true(wordAccuracy(scanText, textOf(doc)) >= 0.9, textOf(doc));
  t.true(doc.blocks.every((b) => b.kind === 'paragraph' && b.page === 1));
});

test('a PNG is read by OCR', async (t) => {
  const { png } = textImage(SCAN_LINES, { width: 1400, height: 600 });
  const doc = await parseImage(parseInput(writeFixture(dir.path, 'note.png', png), MEDIA_TYPES.png));
  t.is(doc.mediaType, MEDIA_TYPES.png);
  t.deepEqual(doc.ocrPages, [1]);
  t.true(wordAccuracy(scanText, textOf(doc)) >= 0.9, textOf(doc));
  // Each line has its box, where textImage drew it: from x = 100, baseline at 150 + i * 1.6 * 44 px.
  const boxes = doc.blocks.flatMap((b) => b.boxes ?? []).sort((a, b) => a.y0 - b.y0);
  t.is(boxes.length, SCAN_LINES.length, JSON.stringify(boxes));
  boxes.forEach((box, i) => {
    const baseline = 150 + i * 1.6 * 44;
    t.true(Math.abs(box.x0 * 1400 - 100) < 15, `line ${i} starts at x ${box.x0 * 1400}`);
    t.true(box.y0 * 600 < baseline - 25 && box.y1 * 600 > baseline - 5 && box.y1 * 600 < baseline + 20, `line ${i} spans y ${box.y0 * 600}..${box.y1 * 600}`);
  });
});

test('every TIFF frame is a page, 8-bit and 1-bit alike, with progress per page', async (t) => {
  const first = textImage(['First page says hello'], { width: 1300, height: 300 });
  const second = textImage(['Second page says goodbye'], { width: 1300, height: 300 });
  const bytes = tiff([
    { ...first, bits: 8 },
    { ...second, bits: 1 },
  ]);
  const progress: number[] = [];
  const doc = await parseImage(parseInput(writeFixture(dir.path, 'fax.tif', bytes), MEDIA_TYPES.tiff, {}, (done) => progress.push(done)));
  t.is(doc.mediaType, MEDIA_TYPES.tiff);
  t.is(doc.pageCount, 2);
  t.deepEqual(doc.ocrPages, [1, 2]);
  t.deepEqual(progress, [1, 2]);
  t.regex(doc.blocks.find((b) => b.page === 1)?.text ?? '', /First page says hello/);
  t.regex(doc.blocks.find((b) => b.page === 2)?.text ?? '', /Second page says goodbye/);
});

test('images: too many frames, OCR off, no text, or bytes that are no image', async (t) => {
  const frame = { ...textImage(['x'], { width: 64, height: 64 }), bits: 8 as const };
  const code = async (name: string, bytes: Uint8Array, limits = {}) => {
    const error = await t.throwsAsync(parseImage(parseInput(writeFixture(dir.path, name, bytes), MEDIA_TYPES.tiff, limits)), { instanceOf: ParseFailure });
    return (error as ParseFailure).code;
  };
  t.is(await code('three.tif', tiff([frame, frame, frame]), { maxPages: 2 }), 'too_large');
  t.is(await code('off.png', textImage(['Hello'], { width: 400, height: 200 }).png, { ocr: false }), 'empty');
  t.is(await code('white.png', textImage([], { width: 400, height: 200 }).png), 'empty');
  t.is(await code('fake.png', Buffer.from('\x89PNG\r\n\x1a\nnot really')), 'corrupt');
  t.is(await code('text.tif', Buffer.from('just some text')), 'corrupt');
});

test('tesseract TSV becomes paragraphs of lines with their confidence and their boxes as fractions of the page', (t) => {
  // A row: level, page, block, paragraph, line, word, left, top, width, height, confidence, text.
  type Rect = [number, number, number, number];
  const row = (level: number, [block, par, line, word]: Rect, [left, top, width, height]: Rect, conf: number, text: string) =>
    [level, 1, block, par, line, word, left, top, width, height, conf, text].join('\t');
  const tsv = [
    row(1, [0, 0, 0, 0], [0, 0, 1000, 500], -1, ''),
    row(5, [1, 1, 1, 1], [100, 50, 80, 20], 90, 'Hello'),
    row(5, [1, 1, 1, 2], [200, 45, 60, 30], 80, 'wor-'),
    row(5, [1, 1, 2, 1], [100, 100, 20, 20], 70, 'ld'),
    row(5, [1, 2, 1, 1], [500, 250, 100, 25], 95, 'Next'),
  ].join('\n');
  const page = readTsv(tsv);
  t.deepEqual(page.paragraphs, [
    {
      lines: [
        { text: 'Hello wor-', confidence: 85, box: { x0: 0.1, y0: 0.09, x1: 0.26, y1: 0.15 } },
        { text: 'ld', confidence: 70, box: { x0: 0.1, y0: 0.2, x1: 0.12, y1: 0.24 } },
      ],
    },
    { lines: [{ text: 'Next', confidence: 95, box: { x0: 0.5, y0: 0.5, x1: 0.6, y1: 0.55 } }] },
  ]);
});

test('joining lines removes hyphenation but keeps real hyphens and slashes tight', (t) => {
  t.is(joinLines(['vir-', 'tual machines']), 'virtual machines');
  t.is(joinLines(['Trace-', 'Monkey']), 'Trace-Monkey');
  t.is(joinLines(['Terms/', 'Acronyms']), 'Terms/Acronyms');
  t.is(joinLines(['2017 -', 'and later']), '2017 - and later');
  t.is(joinLines(['  two  ', '', 'lines ']), 'two lines');
});

test('text quality tells words from OCR noise', (t) => {
  t.true(textQuality('Desiring to keep you posted on the progress of the Foundation').score > 0.9);
  t.true(textQuality('A l e t t e r from t h e i r «3E*»CM s*r;tiiR» c o n t r a c t s').score < 0.4);
  t.true(textQuality('적립한도 없이 할인점 1.5% 빅포인트 적립').score > 0.9);
  t.deepEqual(textQuality('12 3.5 %'), { score: 0, tokens: 0 });
});
