import test from 'ava';
import { tempDir } from '../helpers/temp.ts';
import { blockWith, compoundFileOf, END, parsePath, write } from './parsing-fixtures.ts';
import { workbook, wordFile, xls, xlsxOf } from './parsing-legacy-fixtures.ts';
import { createBlockBuilder } from '../../src/parsing/block-builder.ts';
import { docTextBlocks } from '../../src/parsing/office/doc-text.ts';
import { DEFAULT_LIMITS } from '../../src/parsing/types.ts';
import type { WordBinaryText } from '../../src/parsing/office/word-binary.ts';

/** Legacy .xls and .doc from fixtures made here (the shared .doc files: parsing-legacy-shared.unit.test.ts). */

const dir = tempDir('kbqa-parsing-legacy-');
test.after.always(() => dir.remove());

const failsWith = async (t: import('ava').ExecutionContext, name: string, bytes: Buffer, code: string, limits = DEFAULT_LIMITS) => {
  const started = performance.now();
  const error = await t.throwsAsync(parsePath(write(dir.path, name, bytes), limits));
  t.is((error as { code?: string }).code, code, error?.message);
  t.true(performance.now() - started < 2000, 'fails at once');
  return error;
};

const SALES = workbook([
  {
    name: 'Sales',
    rows: [['Quarterly sales'], ['Region', 'Units', 'Share', 'Closed'], ['West', 1200, 0.25, new Date(Date.UTC(2024, 2, 31))], ['East', 800, 0.75, new Date(Date.UTC(2024, 5, 30))]],
    merges: [{ s: { r: 0, c: 0 }, e: { r: 0, c: 3 } }],
    formats: { C3: '0%', C4: '0%', B3: '#,##0', B4: '#,##0' },
  },
  { name: 'Notes', rows: [['Figures are unaudited.']] },
  { name: 'Scratch', rows: [['do not read', 1, 2]], hidden: true },
]);

test('xls: a visible sheet is a page under its name; rows carry their column names; hidden sheets are skipped', async (t) => {
  const doc = await parsePath(write(dir.path, 'sales.xls', xls(SALES)));
  t.is(doc.mediaType, 'application/vnd.ms-excel');
  t.is(doc.pageCount, 2);
  t.like(blockWith(doc, 'Sales'), { kind: 'heading', page: 1 });
  t.like(blockWith(doc, 'Region: West'), { kind: 'table_row', page: 1, text: 'Region: West; Units: 1,200; Share: 25%; Closed: 2024-03-31', headingPath: ['Sales'] });
  t.like(blockWith(doc, 'unaudited'), { page: 2, headingPath: ['Notes'] });
  t.falsy(blockWith(doc, 'do not read'));
  t.deepEqual(doc.warnings, ['Sheet "Scratch" is hidden and was skipped.']);
});

test('xls reads like the same workbook saved as xlsx', async (t) => {
  const legacy = await parsePath(write(dir.path, 'same.xls', xls(SALES)));
  const modern = await parsePath(write(dir.path, 'same.xlsx', xlsxOf(SALES)));
  const view = (d: typeof legacy) => d.blocks.map((b) => [b.page, b.kind, b.text, b.headingPath.join('/')].join(' '));
  t.deepEqual(view(legacy), view(modern));
  t.deepEqual(legacy.warnings, modern.warnings);
});

test('xls: only hidden sheets with data is empty; more sheets than the page limit is too large', async (t) => {
  await failsWith(t, 'hidden.xls', xls(workbook([{ name: 'Blank', rows: [] }, { name: 'Secret', rows: [['x']], hidden: true }])), 'empty');
  const many = workbook(Array.from({ length: 4 }, (_, i) => ({ name: `S${i}`, rows: [[`sheet ${i}`]] })));
  await failsWith(t, 'many.xls', xls(many), 'too_large', { ...DEFAULT_LIMITS, maxPages: 3 });
  await failsWith(t, 'big.xls', xls(SALES), 'too_large', { ...DEFAULT_LIMITS, maxUncompressedBytes: 1024 });
});

test('xls: a damaged workbook stream is corrupt, not a CSV of its bytes', async (t) => {
  const bytes = xls(SALES);
  // Past the BOF record of the Workbook stream (in the mini stream, after the directory).
  bytes.fill(0x41, bytes.indexOf(Buffer.from([0x09, 0x08])) + 20, 3000);
  await failsWith(t, 'damaged.xls', bytes, 'corrupt');
});

test('legacy files whose sector chain loops fail as corrupt at once (the readers would allocate until the heap is gone)', async (t) => {
  const loop = (name: string) => compoundFileOf({ fat: [0, END, 3, 2], directoryStart: 1, streams: [{ name, start: 2, size: 8192 }], sectors: 3 });
  const doc = await failsWith(t, 'loop.doc', loop('WordDocument'), 'corrupt');
  t.regex(doc!.message, /chain loops/);
  await failsWith(t, 'loop.xls', loop('Workbook'), 'corrupt');
});

test('doc: a password-protected document is encrypted; a WordDocument stream that is not Word is corrupt', async (t) => {
  await failsWith(t, 'secret.doc', wordFile({ flags: 0x0100 }), 'encrypted');
  await failsWith(t, 'garbage.doc', wordFile({ magic: 0x1234 }), 'corrupt');
  await failsWith(t, 'nofib.doc', wordFile({}), 'corrupt');
  const cut = wordFile({}).subarray(0, 1500);
  await failsWith(t, 'cut.doc', cut, 'corrupt');
});

const wordText = (parts: Partial<WordBinaryText>): WordBinaryText => ({ body: '', footnotes: '', endnotes: '', textboxes: '', headers: '', footers: '', ...parts });
const blocksOf = (parts: Partial<WordBinaryText>) => {
  const builder = createBlockBuilder();
  const lastPage = docTextBlocks(wordText(parts), builder);
  return { lastPage, blocks: builder.finish({ mediaType: 'application/msword', pageCount: lastPage, limits: DEFAULT_LIMITS }).blocks };
};

test('doc text: cell marks make table rows under their header; notes follow the body; headers and footers once', (t) => {
  const { blocks } = blocksOf({
    body: 'Prices\nItem\tPrice\t\tTea\t3\t\tCoffee\t4\t\t\nAfter the table\n',
    footnotes: 'Prices include tax.\n',
    headers: 'ACME Ltd\nACME Ltd\n',
    footers: 'Page\n',
  });
  t.deepEqual(
    blocks.map((b) => `${b.kind}: ${b.text}`),
    ['paragraph: Prices', 'table_row: Item | Price', 'table_row: Item: Tea; Price: 3', 'table_row: Item: Coffee; Price: 4', 'paragraph: After the table', 'footnote: Prices include tax.', 'paragraph: ACME Ltd', 'paragraph: Page'],
  );
});

test('doc text: pages are estimated from the amount of text', (t) => {
  // 850 characters are 10 lines of 90, and a page holds 40 (docx-inline.ts): 4 such paragraphs a page.
  const paragraph = 'word '.repeat(170).trim();
  const { lastPage, blocks } = blocksOf({ body: Array.from({ length: 60 }, () => paragraph).join('\n') });
  t.is(lastPage, 15);
  t.is(blocks[4]!.page, 2);
  t.is(blocks[0]!.page, 1);
  t.is(blocks[blocks.length - 1]!.page, lastPage);
});
