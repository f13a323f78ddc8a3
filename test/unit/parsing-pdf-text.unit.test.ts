import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { headingLevels } from '../../src/parsing/pdf/pdf-headings.ts';
import { isTocTitle, tocPages } from '../../src/parsing/pdf/pdf-toc.ts';
import type { OcrEngine } from '../../src/parsing/ocr/ocr.ts';
import { createPdfParser, parsePdf } from '../../src/parsing/pdf/pdf.ts';
import { brokenGlyphWords } from '../../src/parsing/language/text-repair.ts';
import { MEDIA_TYPES, type ParsedDocument } from '../../src/parsing/types.ts';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';
import { parseInput, writeFixture } from './parsing-pdf-fixtures.ts';
import { CHAPTERS, contentsPdf, ladderPdf, repairPdf, RUNNING, runningHeaderPdf } from './parsing-pdf-text-fixtures.ts';

/** Text repair and heading paths in PDFs: generated documents, then the shared ones. */

const dir = mkdtempSync(join(tmpdir(), 'kbqa-pdf-text-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const parseBytes = async (name: string, bytes: Uint8Array) => parsePdf(parseInput(writeFixture(dir, name, bytes), MEDIA_TYPES.pdf, { ocr: false }));
const chunks = (doc: ParsedDocument) => doc.blocks.filter((b) => b.kind !== 'heading');

test('pdf: a contents page is not the ancestor of the chapters, and its entries are not headings', async (t) => {
  const doc = await parseBytes('contents.pdf', await contentsPdf());
  const headings = doc.blocks.filter((b) => b.kind === 'heading').map((b) => b.text);
  t.deepEqual(headings, ['Contents', ...CHAPTERS.map((c, i) => `${i + 1} ${c}`)]);
  const later = chunks(doc).filter((b) => b.page >= 3);
  t.true(later.length >= 8);
  for (const block of later) t.not(block.headingPath[0], 'Contents', `page ${block.page}: ${block.text}`);
  t.deepEqual(doc.blocks.find((b) => b.page === 6 && b.text.startsWith('More'))?.headingPath, ['2 Seeds and Seedlings']);
  // The chapters take the top level: the contents title's own size is not a rung of the ladder.
  t.deepEqual([...new Set(doc.blocks.filter((b) => b.kind === 'heading').map((b) => b.level))], [1]);
});

test('pdf: a running header outside the margin band is no heading above the text', async (t) => {
  const doc = await parseBytes('running.pdf', await runningHeaderPdf());
  t.deepEqual(
    doc.blocks.filter((b) => b.kind === 'heading').map((b) => b.text),
    CHAPTERS,
  );
  for (const block of doc.blocks) t.false(block.headingPath.includes(RUNNING), `page ${block.page}: ${block.text}`);
});

test('contents titles in several languages; a table of numbers is no contents page', (t) => {
  for (const title of ['Contents', 'TABLE OF CONTENTS', 'Inhaltsverzeichnis', 'Table des matières', 'Índice', 'Содержание', '目 录', 'Index']) t.true(isTocTitle(title), title);
  t.false(isTocTitle('Contents of the box'));
  const figures = ['Region Sales', 'West 12', 'East 40', 'North 5', 'South 9', 'Central 17', 'Islands 3'];
  const leaders = ['1 Soil .......... 3', '2 Seeds .......... 5', '3 Water .......... 7', '4 Pests .......... 9', '5 Tools .......... 11'];
  const pages = new Map([
    [1, figures],
    [2, leaders],
    [3, ['Seeds, 5, 12', 'Soil, 3, 8–9', 'Water 7']],
    [4, ['Inhalt', '3 Boden', '5 Samen', '7 Wasser']],
  ]);
  t.deepEqual([...tocPages(pages)], [2, 3, 4]);
});

test('pdf: three heading sizes give levels 1 to 3', async (t) => {
  const doc = await parseBytes('ladder.pdf', await ladderPdf());
  const levels = doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.level, b.text]);
  t.deepEqual(levels, [
    [1, 'Garden Handbook'],
    [2, 'The Beds'],
    [3, 'Beds in Spring'],
    [3, 'Beds in Autumn'],
    [2, 'The Paths'],
    [3, 'Paths in Spring'],
    [3, 'Paths in Autumn'],
  ]);
  t.deepEqual(doc.blocks.find((b) => b.text.includes('paths in autumn and'))?.headingPath, ['Garden Handbook', 'The Paths', 'Paths in Autumn']);
});

test('pdf: near-equal heading sizes are one rung of the ladder', (t) => {
  const block = (text: string, size: number) => ({ kind: 'paragraph' as const, text, size, font: 'F2', lines: 1 });
  const body = { size: 10, font: 'F1', fontShare: new Map([['F1', 0.9], ['F2', 0.1]]) };
  const blocks = [block('Title', 20), block('Part One', 14.6), block('Part Two', 14.2), block('Section', 12), block('Some body text that runs on.', 10)];
  t.deepEqual(headingLevels(blocks, body), [1, 2, 2, 3, undefined]);
});

test('pdf: hyphenated line ends are joined, compounds keep their hyphen, ligatures become letters', async (t) => {
  const doc = await parseBytes('repair.pdf', await repairPdf());
  const text = doc.blocks.map((b) => b.text).join(' ');
  t.true(text.includes('the most efficient way'), text);
  t.true(text.includes('a self-aware team'), text);
  t.true(text.includes('the fields and the flower beds'), text);
  t.true(text.includes('hydroponic pump'), text);
  t.false(/[\uFB00-\uFB06\u00AD]/.test(text), text);
});

withSharedData(test, 'shared PDFs: text repair and heading paths', () => {
  const parseShared = (name: string) => parsePdf(parseInput(sharedDoc('pdf', name), MEDIA_TYPES.pdf, { ocr: false }));

  // A stand-in for tesseract (which takes minutes here): what matters is that the broken pages
  // come from OCR, without typography, so only page 1 and page 23 set the body style.
  const fakeOcr: OcrEngine = {
    recognize: async () => ({ paragraphs: [{ lines: [{ text: 'Perceived usefulness and perceived ease of use predict the intention to use a system.', confidence: 95 }] }] }),
    close: async () => {},
  };

  for (const ocr of [false, true]) {
    test(`pdf: TAMReview’s "Permanent URL" line is no heading above the chunks after page 1 (OCR ${ocr ? 'on' : 'off'})`, async (t) => {
      const input = parseInput(sharedDoc('pdf', 'TAMReview.pdf'), MEDIA_TYPES.pdf, { ocr });
      const doc = await createPdfParser({ ocr: fakeOcr })(input);
      t.is(doc.ocrPages.length, ocr ? 21 : 0);
      const under = chunks(doc).filter((b) => b.page > 1 && b.headingPath.some((h) => /Permanent URL|http/.test(h)));
      t.deepEqual(under, []);
    });
  }

  test('pdf: TAMReview’s pages set in fonts without a map (raw codes 1-31) are all reported as garbled', async (t) => {
    const doc = await parseShared('TAMReview.pdf');
    const garbled = doc.warnings.filter((w) => w.includes('garbled')).map((w) => Number(/^page (\d+)/.exec(w)?.[1]));
    // Pages 4, 6, 7, 10, 14 and 22 used to pass: what is left once the codes are dropped scores as words.
    t.deepEqual(garbled, Array.from({ length: 21 }, (_, i) => i + 2));
  });

  test('pdf: tracemonkey has no broken glyphs inside words ("↵" for ff) and its TeX accents are composed', async (t) => {
    const doc = await parseShared('tracemonkey.pdf');
    const text = doc.blocks.map((b) => b.text).join(' ');
    t.deepEqual(brokenGlyphWords(text), []);
    t.false(/\p{L}\u21B5|\u21B5\p{L}/u.test(text));
    t.true(text.includes('naïve'));
  });

  test('pdf: reliance’s "Table of Contents" is recognised: its page has no other heading', async (t) => {
    const doc = await parseShared('reliance.pdf');
    t.deepEqual(
      doc.blocks.filter((b) => b.page === 3 && b.kind === 'heading').map((b) => b.text),
      ['Table of Contents'],
    );
  });
});
