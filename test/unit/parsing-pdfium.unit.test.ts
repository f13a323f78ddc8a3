import test from 'ava';
import { loadConfig } from '../../src/config.ts';
import { applySettingsArgs, parserProcessSettings, settingsArgs } from '../../src/parsing/parser-settings.ts';
import { readPageText } from '../../src/parsing/pdf/pdf-items.ts';
import { openPdf } from '../../src/parsing/pdf/pdf-open.ts';
import { createPdfParser } from '../../src/parsing/pdf/pdf.ts';
import { openPdfium, PdfiumRefused } from '../../src/parsing/pdf/pdfium.ts';
import { MEDIA_TYPES } from '../../src/parsing/types.ts';
import { tempDir } from '../helpers/temp.ts';
import type { OcrEngine } from '../../src/parsing/ocr/ocr.ts';
import { columnsPdf, multiPagePdf, parseInput, pdf, SCAN_LINES, tablePdf, textImage, writeFixture } from './parsing-pdf-fixtures.ts';

// Issue 43 item 16: PDFium reads PDF text layers, pdf.js what PDFium refuses and what needs OCR.
const dir = tempDir('kbqa-parsing-pdfium-');
test.after.always(() => dir.remove());

const parseWith = (engine: 'pdfium' | 'pdfjs', name: string, bytes: Uint8Array) =>
  createPdfParser({ engine })(parseInput(writeFixture(dir.path, name, bytes), MEDIA_TYPES.pdf));

test('PDFium gives the runs pdf.js gives: text, positions in the visual frame, size, word boundaries', async (t) => {
  const bytes = new Uint8Array(await pdf((doc) => doc.fontSize(12).text('Alpha beta gamma.', 72, 100).fontSize(20).text('Big heading here', 72, 200)));
  const doc = await openPdfium(bytes);
  const ours = doc.pageText(1);
  doc.close();
  const theirs = await readPageText(await (await openPdf(bytes, 30_000)).getPage(1));
  t.is(ours.width, theirs.width);
  t.is(ours.height, theirs.height);
  t.deepEqual(
    ours.items.map((i) => i.text),
    theirs.items.map((i) => i.text),
  );
  for (const [k, item] of ours.items.entries()) {
    const other = theirs.items[k]!;
    for (const key of ['x0', 'x1', 'y', 'size'] as const) t.true(Math.abs(item[key] - other[key]) < 0.5, `${item.text}: ${key} ${item[key]} against ${other[key]}`);
  }
});

test('columns, tables and pages come out of PDFium as out of pdf.js, boxes included', async (t) => {
  for (const [name, bytes] of [
    ['columns.pdf', await columnsPdf(['apples', 'rivers', 'clouds'], 10)],
    ['table.pdf', await tablePdf()],
    ['pages.pdf', await multiPagePdf()],
  ] as const) {
    const ours = await parseWith('pdfium', name, bytes);
    const theirs = await parseWith('pdfjs', name, bytes);
    t.is(ours.pageCount, theirs.pageCount, name);
    t.deepEqual(
      ours.blocks.map((b) => [b.page, b.kind, b.text, b.boxes?.length]),
      theirs.blocks.map((b) => [b.page, b.kind, b.text, b.boxes?.length]),
      name,
    );
  }
});

test('a scan with a stamp of text (a sparse layer over a page-sized image) still goes to OCR, through pdf.js', async (t) => {
  const { png } = textImage(SCAN_LINES);
  const bytes = await pdf((doc) => doc.image(png, 0, 0, { width: 612, height: 792 }).fontSize(10).text('Received 2024-03-01 by the records office', 300, 40));
  // OCR reads clearly more than the stamp (pdf-page.ts chooseText keeps it then).
  const lines = [...SCAN_LINES, ...SCAN_LINES, ...SCAN_LINES].map((text) => ({ text, confidence: 95 }));
  const ocr: OcrEngine = { recognize: async () => ({ paragraphs: [{ lines }] }), close: async () => {} };
  for (const engine of ['pdfium', 'pdfjs'] as const) {
    const doc = await createPdfParser({ engine, ocr })(parseInput(writeFixture(dir.path, `stamped-scan-${engine}.pdf`, bytes), MEDIA_TYPES.pdf));
    t.deepEqual(doc.ocrPages, [1], engine);
    t.true(doc.blocks.some((b) => b.text.includes('seven wizards')), engine);
  }
  const plain = await pdf((doc) => doc.fontSize(10).text('Received 2024-03-01 by the records office', 300, 40));
  const page = await openPdfium(new Uint8Array(plain));
  t.is(page.imageCoverage(1), 0);
  page.close();
  const scan = await openPdfium(new Uint8Array(bytes));
  t.true(scan.imageCoverage(1) > 0.95);
  scan.close();
});

test('bytes PDFium refuses are refused as such, and the parse falls back to pdf.js', async (t) => {
  await t.throwsAsync(openPdfium(new TextEncoder().encode('%PDF-1.4 not really')), { instanceOf: PdfiumRefused });
  await t.throwsAsync(parseWith('pdfium', 'junk.pdf', new TextEncoder().encode('%PDF-1.4 not really')), { message: /pdf\.js could not read/ });
});

test('PDFium by default; KBQA_PDF_ENGINE=pdfjs reaches the parser processes', (t) => {
  t.is(parserProcessSettings().pdfEngine, 'pdfium');
  t.is(loadConfig({}).ingestion.pdfEngine, 'pdfium');
  const config = loadConfig({ KBQA_PDF_ENGINE: 'pdfjs' });
  t.is(config.ingestion.pdfEngine, 'pdfjs');
  t.deepEqual(settingsArgs({ pdfEngine: 'pdfjs' }), ['--pdf-engine=pdfjs']);
  applySettingsArgs(['--pdf-engine=pdfjs']);
  t.is(parserProcessSettings().pdfEngine, 'pdfjs');
  applySettingsArgs([]);
  t.throws(() => loadConfig({ KBQA_PDF_ENGINE: 'mupdf' }));
});
