import { readFileSync } from 'node:fs';
import test from 'ava';
import { parseImage } from '../../src/parsing/ocr/image.ts';
import { closeOcr } from '../../src/parsing/ocr/ocr.ts';
import { parsePdf } from '../../src/parsing/pdf/pdf.ts';
import { MEDIA_TYPES, type MediaType, type ParsedDocument } from '../../src/parsing/types.ts';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';
import { parseInput, wordAccuracy } from './parsing-pdf-fixtures.ts';

/**
 * OCR on the scans of ../shared/data/docs/scanned: word accuracy against the ground truth
 * (*.gt.txt), the image-only PDF, and the PDF whose text layer is a bad OCR of its scan.
 */

test.after.always(() => closeOcr());

const textOf = (doc: ParsedDocument) => doc.blocks.map((b) => b.text).join('\n');

// Issue 15's goal: 95 % on the clean shared scans, eurotext's six languages included.
const GROUND_TRUTH: [string, MediaType, number][] = [
  ['phototest.tif', MEDIA_TYPES.tiff, 0.95],
  ['eurotext.tif', MEDIA_TYPES.tiff, 0.95],
  ['testocr.png', MEDIA_TYPES.png, 0.95],
  ['cosmic.png', MEDIA_TYPES.png, 0.95],
];

withSharedData(test, 'shared scans', () => {
  for (const [name, mediaType, minimum] of GROUND_TRUTH) {
    test(`ocr: scanned/${name} reaches ${minimum * 100}% word accuracy`, async (t) => {
      const doc = await parseImage(parseInput(sharedDoc('scanned', name), mediaType));
      const truth = readFileSync(sharedDoc('scanned', name.replace(/\.\w+$/, '.gt.txt')), 'utf8');
      const accuracy = wordAccuracy(truth, textOf(doc));
      t.log(`${name}: word accuracy ${(accuracy * 100).toFixed(1)}%`);
      t.true(accuracy >= minimum, textOf(doc));
      t.is(doc.pageCount, 1);
      t.deepEqual(doc.ocrPages, [1]);
    });
  }

  test('ocr: a low-resolution JPEG page is scaled up and read', async (t) => {
    const doc = await parseImage(parseInput(sharedDoc('scanned', 'layout-parser-paper-with-table.jpg'), MEDIA_TYPES.jpeg));
    t.is(doc.mediaType, MEDIA_TYPES.jpeg);
    t.regex(textOf(doc), /LayoutParser: A Unified Toolkit for DL-Based DIA/);
    t.regex(textOf(doc), /Layout Detection Models/);
  });

  test('ocr: the image-only loremipsum-flat.pdf is read by OCR', async (t) => {
    const doc = await parsePdf(parseInput(sharedDoc('scanned', 'loremipsum-flat.pdf'), MEDIA_TYPES.pdf));
    t.deepEqual(doc.ocrPages, [1]);
    t.true(doc.blocks.length >= 3);
    t.regex(textOf(doc), /^Lorem ipsum dolor sit amet, consectetur adipiscing elit\./);
    t.regex(textOf(doc), /Duis quis lacinia lacus\./);
  });

  test('ocr: a garbled OCR text layer (pdf-with-ocr-text.pdf) is replaced by a new OCR', async (t) => {
    const doc = await parsePdf(parseInput(sharedDoc('scanned', 'pdf-with-ocr-text.pdf'), MEDIA_TYPES.pdf));
    t.deepEqual(doc.ocrPages, [1]);
    t.regex(textOf(doc), /Desiring to keep you posted on the progress of the Foundation/);
    t.true(doc.warnings.some((w) => w.includes('garbled')));
  });
});
