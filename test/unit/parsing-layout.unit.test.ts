import test from 'ava';
import { nGramRecall, wordAccuracy } from '../../bench/layout-metrics.ts';
import { layoutPdf } from '../../bench/layout-pages.ts';
import { imageOnlyPdf, renderPdfGray, renderPdfPages, turned } from '../../bench/layout-render.ts';
import { parseImage } from '../../src/parsing/ocr/image.ts';
import { ocrBlocks } from '../../src/parsing/ocr/ocr-blocks.ts';
import { closeOcr } from '../../src/parsing/ocr/ocr.ts';
import { readTsv } from '../../src/parsing/ocr/ocr-tsv.ts';
import { parsePdf } from '../../src/parsing/pdf/pdf.ts';
import { MEDIA_TYPES, type ParsedDocument } from '../../src/parsing/types.ts';
import { tempDir } from '../helpers/temp.ts';
import { parseInput, pdf as makePdf, tiff, writeFixture } from './parsing-pdf-fixtures.ts';

/**
 * Reading order on generated pages with known text (bench/layout-pages.ts): a title across the
 * page over two or three justified columns, dot-leader rows in the first column, a running
 * header and footer. As text PDFs, and rendered to images and read by OCR (two pages' worth).
 */

const dir = tempDir('kbqa-parsing-layout-');
test.after.always(async () => {
  dir.remove();
  await closeOcr();
});

const textOf = (doc: ParsedDocument) => doc.blocks.map((b) => b.text).join('\n');
const HEADER = 'The Layout Gazette';

test('layout metrics: word accuracy counts edits, 5-gram recall counts runs kept in order', (t) => {
  const reference = 'one two three four five six seven eight';
  t.is(wordAccuracy(reference, reference), 1);
  t.is(wordAccuracy(reference, 'one two three four five six seven'), 7 / 8);
  t.is(wordAccuracy('Word', 'word'), 0, 'case-sensitive');
  t.is(wordAccuracy('(32) Levomoramide .......... 9629', '(32) Levomoramide ... 9629'), 1, 'dot leaders are not words');
  t.is(nGramRecall(reference, reference), 1);
  // Two columns read line by line across: every word is there, few 5-word runs are.
  t.is(nGramRecall('a b c d e f g h', 'a b e f c d g h'), 0);
  t.is(nGramRecall(reference, 'one two three four five'), 1 / 4);
});

for (const columns of [2, 3]) {
  test(`a ${columns}-column text PDF reads column by column, leader rows whole, running lines dropped`, async (t) => {
    const { pdf, pages } = await layoutPdf({ columns, seed: columns });
    const doc = await parsePdf(parseInput(writeFixture(dir.path, `columns-${columns}.pdf`, pdf), MEDIA_TYPES.pdf));
    const text = textOf(doc);
    const recall = nGramRecall(pages.join('\n'), text);
    t.log(`${columns} columns: 5-gram recall ${recall.toFixed(3)}`);
    t.true(recall >= 0.95, text.slice(0, 2000));
    t.true(doc.blocks.some((b) => /^\(32\) Levomoramide \.+ 9629$/.test(b.text)), 'the leader row is one block');
    t.false(doc.blocks.some((b) => b.kind === 'table_row'), 'justified lines are no table');
    t.false(text.includes(HEADER));
    t.false(/Page \d of 3/.test(text));
    t.true(doc.blocks.every((b) => b.page >= 1 && b.page <= 3));
  });
}

/** A schedule as in 21 CFR 1308: three columns of nothing but dot-leader rows, set close together. */
const schedulePdf = () =>
  makePdf((doc) => {
    const names = ['Levomoramide', 'Levophenacylmorphan', 'Morpheridine', 'Noracymethadol', 'Norlevorphanol'];
    const width = (512 - 2 * 14) / 3;
    doc.font('Times-Roman').fontSize(8);
    for (let n = 1; n <= 120; n++) {
      const [column, row] = [Math.floor((n - 1) / 40), (n - 1) % 40];
      const name = `(${n}) ${names[n % names.length]}`;
      let dots = '';
      while (doc.widthOfString(`${name} ${dots}.. ${9600 + n}`) < width) dots += '.';
      doc.text(`${name} ${dots} ${9600 + n}`, 50 + column * (width + 14), 60 + row * 12, { lineBreak: false });
    }
  });

test('three columns of dot-leader rows read column by column, each row whole', async (t) => {
  const doc = await parsePdf(parseInput(writeFixture(dir.path, 'schedule.pdf', await schedulePdf()), MEDIA_TYPES.pdf));
  const rows = doc.blocks.map((b) => b.text);
  t.is(rows.length, 120, rows.join('\n'));
  rows.forEach((row, i) => t.regex(row, new RegExp(`^\\(${i + 1}\\) [A-Za-z]+ \\.+ ${9601 + i}$`)));
});

/** Two columns as tesseract may list them, line by line across the page (a block per line). */
function acrossTsv(): string {
  const rows = ['1\t1\t0\t0\t0\t0\t0\t0\t1000\t1400\t-1\t'];
  let block = 0;
  const line = (words: string[], left: number, top: number) => {
    block++;
    rows.push(`4\t1\t${block}\t1\t1\t0\t${left}\t${top}\t400\t24\t-1\t`);
    words.forEach((word, i) => rows.push(`5\t1\t${block}\t1\t1\t${i + 1}\t${left + i * 80}\t${top}\t60\t24\t95\t${word}`));
  };
  line(['Title', 'across', 'both', 'columns', 'here', 'now', 'read', 'first', 'of', 'all'], 100, 100);
  for (let n = 0; n < 6; n++) {
    line(['left', 'column', 'line', `L${n}`, 'ends'], 100, 200 + n * 40);
    line(['right', 'column', 'line', `R${n}`, 'ends'], 540, 200 + n * 40);
  }
  return rows.join('\n');
}

test('OCR words are ordered by their boxes: title first, then each column whole', (t) => {
  const text = ocrBlocks(readTsv(acrossTsv()))
    .map((b) => b.text)
    .join(' ');
  const order = ['Title', ...[0, 1, 2, 3, 4, 5].map((n) => `L${n}`), ...[0, 1, 2, 3, 4, 5].map((n) => `R${n}`)];
  const at = order.map((w) => text.indexOf(w));
  t.true(at.every((p) => p >= 0), text);
  t.deepEqual([...at].sort((a, b) => a - b), at, text);
});

test('a 3-column page photographed askew (PNG turned 2.5°) and read by OCR keeps its columns', async (t) => {
  const { pdf, pages } = await layoutPdf({ columns: 3, pages: 1, seed: 3 });
  const [png] = await renderPdfPages(pdf);
  const doc = await parseImage(parseInput(writeFixture(dir.path, 'columns-3.png', await turned(png!, 2.5)), MEDIA_TYPES.png));
  const recall = nGramRecall(pages[0]!, textOf(doc));
  t.log(`3 columns by OCR: 5-gram recall ${recall.toFixed(3)}`);
  t.true(recall >= 0.75, textOf(doc));
});

test('a scanned 2-column PDF reads column by column and drops its running header and footer', async (t) => {
  const { pdf, pages } = await layoutPdf({ columns: 2, seed: 2 });
  const scan = await imageOnlyPdf(await renderPdfPages(pdf));
  const doc = await parsePdf(parseInput(writeFixture(dir.path, 'scan-2.pdf', scan), MEDIA_TYPES.pdf));
  const text = textOf(doc);
  const recall = nGramRecall(pages.join('\n'), text);
  t.log(`scanned 2 columns: 5-gram recall ${recall.toFixed(3)}`);
  t.deepEqual(doc.ocrPages, [1, 2, 3]);
  t.true(recall >= 0.75, text.slice(0, 2000));
  t.false(text.includes(HEADER), 'running header');
  t.false(/Page \d of 3/.test(text), 'running footer');
});

test('a 3-page TIFF scan drops its running header and footer', async (t) => {
  // 150 dpi keeps the three OCR'd pages cheap; one column is enough for the margins.
  const { pdf, pages } = await layoutPdf({ columns: 1, seed: 5 });
  const frames = (await renderPdfGray(pdf, 150)).map((g) => ({ width: g.width, height: g.height, gray: g.data, bits: 8 as const }));
  const doc = await parseImage(parseInput(writeFixture(dir.path, 'scan.tif', tiff(frames)), MEDIA_TYPES.tiff));
  const text = textOf(doc);
  t.deepEqual(doc.ocrPages, [1, 2, 3]);
  t.true(nGramRecall(pages.join('\n'), text) >= 0.75, text.slice(0, 2000));
  t.false(text.includes(HEADER), 'running header');
  t.false(/Page \d of 3/.test(text), 'running footer');
});
