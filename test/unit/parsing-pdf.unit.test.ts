import test, { type ExecutionContext } from 'ava';
import { closeOcr, OcrTimeout, type OcrEngine } from '../../src/parsing/ocr/ocr.ts';
import { createPdfParser, parsePdf } from '../../src/parsing/pdf/pdf.ts';
import { type FailureCode, MEDIA_TYPES, ParseFailure } from '../../src/parsing/types.ts';
import { tempDir } from '../helpers/temp.ts';
import { COLUMN_TOPICS, columnsPdf, imageOnlyPdf, LEFT_TOPIC, multiPagePdf, parseInput, pdf, RIGHT_TOPIC, TABLE, tablePdf, twoColumnPdf, writeFixture } from './parsing-pdf-fixtures.ts';

const dir = tempDir('kbqa-parsing-pdf-');
test.after.always(async () => {
  dir.remove();
  await closeOcr();
});

const parse = async (name: string, bytes: Uint8Array, limits = {}, onProgress?: (done: number, total: number) => void) =>
  parsePdf(parseInput(writeFixture(dir.path, name, bytes), MEDIA_TYPES.pdf, limits, onProgress));

const failure = async (t: ExecutionContext, work: Promise<unknown>, code: FailureCode) => {
  const error = await t.throwsAsync(work, { instanceOf: ParseFailure });
  t.is((error as ParseFailure).code, code, error?.message);
};

test('two columns are read one after the other, never line by line across', async (t) => {
  const doc = await parse('columns.pdf', await twoColumnPdf());
  t.deepEqual(doc.ocrPages, []);
  t.deepEqual(
    doc.blocks.filter((b) => b.text.includes(LEFT_TOPIC) && b.text.includes(RIGHT_TOPIC)),
    [],
    'no block mixes the columns',
  );
  const text = doc.blocks.map((b) => b.text).join('\n');
  // Every sentence survives whole, and the whole left column comes before the right one.
  for (const topic of [LEFT_TOPIC, RIGHT_TOPIC]) {
    for (let i = 1; i <= 24; i++) t.true(text.includes(`Sentence ${i} of the ${topic} column keeps talking about ${topic}.`), `${topic} ${i}`);
  }
  t.true(text.lastIndexOf(LEFT_TOPIC) < text.indexOf(RIGHT_TOPIC));
  const { boxes, ...heading } = doc.blocks[0]!;
  t.deepEqual(heading, { page: 1, kind: 'heading', text: 'Columns Side By Side', headingPath: [], level: 1 });
  t.is(boxes?.length, 1, 'the title is one line');
  t.true(doc.blocks.slice(1).every((b) => b.headingPath[0] === 'Columns Side By Side'));
});

test('three columns are read left to right, each whole', async (t) => {
  const doc = await parse('three-columns.pdf', await columnsPdf(COLUMN_TOPICS, 16));
  const text = doc.blocks.map((b) => b.text).join('\n');
  for (const block of doc.blocks) t.true(COLUMN_TOPICS.filter((topic) => block.text.includes(topic)).length <= 1, block.text);
  for (const topic of COLUMN_TOPICS) {
    for (let i = 1; i <= 16; i++) t.true(text.includes(`Sentence ${i} of the ${topic} column keeps talking about ${topic}.`), `${topic} ${i}`);
  }
  const [a, b, c] = COLUMN_TOPICS.map((topic) => [text.indexOf(topic), text.lastIndexOf(topic)]);
  t.true(a![1]! < b![0]! && b![1]! < c![0]!);
});

test('a table comes out row by row, header names on every data row', async (t) => {
  const doc = await parse('table.pdf', await tablePdf());
  const rows = doc.blocks.filter((b) => b.kind === 'table_row').map((b) => b.text);
  t.deepEqual(rows, ['Region | Sales | Units', 'Region: West; Sales: 12; Units: 3', 'Region: East; Sales: 40; Units: 7', 'Region: North; Sales: 5; Units: 1']);
  t.is(rows.length, TABLE.length);
  const heading = doc.blocks.find((b) => b.kind === 'heading');
  t.is(heading?.text, 'Quarterly Figures');
  t.true(doc.blocks.filter((b) => b.kind === 'table_row').every((b) => b.headingPath.join() === 'Quarterly Figures'));
  t.truthy(doc.blocks.find((b) => b.kind === 'paragraph' && b.text === 'Figures are provisional until the audit closes.'));
  // Each row is one box across its cells, where tablePdf set it: from x 72 pt, row r's top at 140 + 18 r pt on a 612 × 792 page.
  doc.blocks
    .filter((b) => b.kind === 'table_row')
    .forEach((b, r) => {
      t.is(b.boxes?.length, 1);
      const box = b.boxes![0]!;
      t.true(Math.abs(box.x0 * 612 - 72) < 2 && box.x1 * 612 > 72 + 300, `row ${r} spans x ${box.x0 * 612}..${box.x1 * 612}`);
      t.true(box.y0 * 792 < 140 + r * 18 + 10 && box.y1 * 792 > 140 + r * 18, `row ${r} spans y ${box.y0 * 792}..${box.y1 * 792}`);
    });
});

test('pages keep their own text and headings; a running footer is dropped; progress after each page', async (t) => {
  const progress: [number, number][] = [];
  const doc = await parse('pages.pdf', await multiPagePdf(), {}, (done, total) => progress.push([done, total]));
  t.is(doc.pageCount, 3);
  t.deepEqual(progress, [
    [1, 3],
    [2, 3],
    [3, 3],
  ]);
  for (let n = 1; n <= 3; n++) {
    const onPage = doc.blocks.filter((b) => b.page === n);
    t.deepEqual(
      onPage.map((b) => [b.kind, b.text, b.headingPath]),
      [
        ['heading', `Chapter ${n}`, []],
        ['paragraph', `This is the body of page ${n}, written about topic number ${n} in plain sentences.`, [`Chapter ${n}`]],
      ],
    );
  }
  t.false(doc.blocks.some((b) => b.text.includes('Company Confidential')));
});

test('de-hyphenates words broken at the line end', async (t) => {
  const bytes = await pdf((doc) => {
    doc.font('Helvetica').fontSize(11);
    ['The parser reads every para-', 'graph of the document and', 'keeps Trace-', 'Monkey intact.'].forEach((line, i) => doc.text(line, 72, 100 + i * 14, { lineBreak: false }));
  });
  const doc = await parse('hyphens.pdf', bytes);
  t.deepEqual(
    doc.blocks.map((b) => b.text),
    ['The parser reads every paragraph of the document and keeps Trace-Monkey intact.'],
  );
});

test('bytes that are no PDF are corrupt', async (t) => {
  await failure(t, parse('junk.pdf', Buffer.from('%PDF-1.7\nthis is not really a pdf at all\n')), 'corrupt');
  await failure(t, parse('random.pdf', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))), 'corrupt');
});

test('a user password fails as encrypted; an owner password alone does not stop reading', async (t) => {
  const locked = await pdf((doc) => doc.text('Secret text', 72, 72), { userPassword: 'open sesame', ownerPassword: 'owner' });
  await failure(t, parse('locked.pdf', locked), 'encrypted');
  const restricted = await pdf((doc) => doc.text('Readable but restricted', 72, 72), { ownerPassword: 'owner', permissions: { copying: false, modifying: false } });
  const doc = await parse('restricted.pdf', restricted);
  t.is(doc.blocks[0]?.text, 'Readable but restricted');
});

test('more pages than the limit is too_large, before any page is read', async (t) => {
  let progressed = false;
  await failure(
    t,
    parse('long.pdf', await multiPagePdf(), { maxPages: 2 }, () => (progressed = true)),
    'too_large',
  );
  t.false(progressed);
});

test('OCR is injected: a scan reads what the engine returns, and an engine that times out fails the scan as timeout', async (t) => {
  const bytes = await imageOnlyPdf();
  const seen: number[] = [];
  const fake: OcrEngine = {
    recognize: async (image) => {
      seen.push(image.width);
      return { paragraphs: [{ lines: [{ text: 'Read by a fake engine', confidence: 95 }] }] };
    },
    close: async () => {},
  };
  const doc = await createPdfParser({ ocr: fake })(parseInput(writeFixture(dir.path, 'fake-ocr.pdf', bytes), MEDIA_TYPES.pdf));
  t.deepEqual(doc.blocks, [{ page: 1, kind: 'paragraph', text: 'Read by a fake engine', headingPath: [] }]);
  t.deepEqual(doc.ocrPages, [1]);
  t.deepEqual(seen, [1700], 'a letter page rendered at 200 dpi');
  const stuck: OcrEngine = { recognize: () => Promise.reject(new OcrTimeout('too slow')), close: async () => {} };
  await failure(t, createPdfParser({ ocr: stuck })(parseInput(writeFixture(dir.path, 'stuck-ocr.pdf', bytes), MEDIA_TYPES.pdf)), 'timeout');
});

test('a PDF without any text is empty; so is a scan when OCR is off', async (t) => {
  await failure(t, parse('blank.pdf', await pdf(() => {})), 'empty');
  await failure(t, parse('scan-no-ocr.pdf', await imageOnlyPdf(), { ocr: false }), 'empty');
});
