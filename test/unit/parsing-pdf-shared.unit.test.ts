import test from 'ava';
import { closeOcr } from '../../src/parsing/ocr/ocr.ts';
import { parsePdf } from '../../src/parsing/pdf/pdf.ts';
import { MEDIA_TYPES, ParseFailure, type ParsedDocument, type ParseLimits } from '../../src/parsing/types.ts';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';
import { parseInput } from './parsing-pdf-fixtures.ts';

/**
 * The PDFs of ../shared/data/docs: page counts and text that must be found whole, in one block,
 * on the right page (phrases picked from `pdftotext -layout` output and the layout they come from).
 */

test.after.always(() => closeOcr());

const parse = (folder: string, name: string, limits: Partial<ParseLimits> = {}) => parsePdf(parseInput(sharedDoc(folder, name), MEDIA_TYPES.pdf, limits));
const blockOn = (doc: ParsedDocument, page: number, phrase: string) => doc.blocks.find((b) => b.page === page && b.text.includes(phrase));

type Expectation = { folder: string; name: string; pages: number; phrases: [number, string][]; limits?: Partial<ParseLimits> };

const EXPECTED: Expectation[] = [
  {
    folder: 'pdf',
    name: 'tracemonkey.pdf',
    pages: 14,
    phrases: [
      [1, 'Dynamic languages such as JavaScript are more difficult to compile than statically typed ones. Since no concrete type information is available, traditional compilers need to emit generic code'],
      [1, 'Compilers for statically typed languages rely on type information to generate efficient machine code.'],
      [2, 'We implemented these techniques for an existing JavaScript interpreter, SpiderMonkey.'],
      [12, '3d-cube | 25 | 27 | 29 | 3 | 0 | 1.1 | 1.1 | 1.2 | 2.20x'],
    ],
  },
  {
    folder: 'pdf',
    name: 'irs-manual-transmittal-400p.pdf',
    pages: 400,
    phrases: [
      [1, 'This transmits revised IRM 2.3.59, IDRS Terminal Responses, Command Codes BMFOL and BMFOR.'],
      [8, 'The Business Master file on-line system provides read-only access to accounts on the Business Master File in Martinsburg, WV.'],
      [100, 'LINE: 19; POSITION: 06-13; DESCRIPTION AND VALIDITY: Transaction Date'],
    ],
  },
  {
    folder: 'pdf',
    name: 'TAMReview.pdf',
    pages: 23,
    // OCR off: most pages have a garbled text layer, and OCR'ing 15 of them takes most of a minute.
    limits: { ocr: false },
    phrases: [[1, 'User acceptance of technology has been an important field of study for over two decades now.']],
  },
  {
    folder: 'pdf',
    name: 'layout-parser-paper-with-table.pdf',
    pages: 1,
    phrases: [
      [1, 'Dataset: PubLayNet [38]; Base Model1: F / M; Large Model: M; Notes: Layouts of modern scientific documents'],
      [1, 'Dataset: HJDataset [31]; Base Model1: F / M; Large Model: -; Notes: Layouts of history Japanese documents'],
    ],
  },
  {
    folder: 'pdf',
    name: 'embedded-images-tables.pdf',
    pages: 1,
    phrases: [[1, 'Inhibitor concentration (g): 6; bc (V/dec): 0.3233; ba (V/dec): 0.0540; Ecorr (V): 0.8027; icorr (A/cm2): 5.39E-05; Polarization resistance (Ω): 373.180; Corrosion rate (mm/year): 0.4318']],
  },
  {
    folder: 'pdf',
    name: 'korean-text-with-tables.pdf',
    pages: 1,
    phrases: [
      [1, '업종: 할인점; 적립 대상: 이마트, 이마트 트레이더스, 롯데마트, 홈플러스'],
      [1, '업종: 커피전문점; 적립 대상: 스타벅스, 투썸플레이스, 카페베네, 탐앤탐스, 커피빈, 엔제리너스, 할리스커피, 파스쿠찌, 아티제, 폴 바셋'],
    ],
  },
  {
    folder: 'pdf',
    name: 'list-item-example.pdf',
    pages: 2,
    phrases: [
      [1, 'What is product development and quality assurance, and who is involved?'],
      [2, 'Technology and tools selection'],
    ],
  },
  { folder: 'pdf', name: 'reliance.pdf', pages: 3, phrases: [[2, 'Reliance Industries Limited (RIL) is a Fortune 500 company and the largest private sector corporation in India.']] },
  {
    folder: 'pdf',
    name: 'testPDF.pdf',
    pages: 1,
    phrases: [[1, 'Apache Tika is a toolkit for detecting and extracting metadata and structured text content from various documents using existing parser libraries.']],
  },
  {
    folder: 'bad',
    name: 'copy-protected.pdf',
    pages: 2,
    phrases: [
      [1, 'LayoutParser: A Unified Toolkit for Deep Learning Based Document Image Analysis'],
      [2, 'A rich repository of pre-trained neural network models (Model Zoo)'],
    ],
  },
  {
    folder: 'bad',
    name: 'invalid-pdf-structure-pdfminer-one-page.pdf',
    pages: 2,
    phrases: [
      [1, 'Cybersecurity: Launching and Implementing the National Cybersecurity Strategy'],
      [2, 'The Government Accountability Office, the audit, evaluation, and investigative arm of Congress'],
    ],
  },
];

withSharedData(test, 'shared PDFs', () => {
  for (const { folder, name, pages, phrases, limits } of EXPECTED) {
    test(`pdf: ${folder}/${name} has ${pages} page(s) and its text on the right pages`, async (t) => {
      const doc = await parse(folder, name, limits);
      t.is(doc.pageCount, pages);
      t.is(doc.mediaType, MEDIA_TYPES.pdf);
      for (const [page, phrase] of phrases) t.truthy(blockOn(doc, page, phrase), `page ${page}: ${phrase}`);
      t.true(doc.blocks.every((b) => b.text.trim() === b.text && b.text.length > 0 && b.page >= 1 && b.page <= pages));
    });
  }

  test('pdf: tracemonkey columns are read column by column', async (t) => {
    const doc = await parse('pdf', 'tracemonkey.pdf');
    // A left-column line continues with its own next line, not with the right column beside it.
    t.truthy(blockOn(doc, 1, 'Since no concrete type information is available, traditional compilers need to emit generic code that can handle all possible type combinations at runtime.'));
    t.truthy(blockOn(doc, 2, 'Hence, recording and compiling a trace speculates that the path and typing will be exactly as they were during recording for subsequent iterations of the loop.'));
    // The right column's first paragraph on page 1 starts after the left column's last one.
    const text = doc.blocks.filter((b) => b.page === 1).map((b) => b.text).join('\n');
    t.true(text.indexOf('Dynamic languages such as JavaScript are more difficult') < text.indexOf('and is used for the application logic of browser-based productivity applications'));
    const headings = doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.level, b.text]);
    t.deepEqual(headings.slice(0, 4), [
      [1, 'Trace-based Just-in-Time Type Specialization for Dynamic Languages'],
      [2, 'Abstract'],
      [2, '1. Introduction'],
      [2, '2. Overview: Example Tracing Run'],
    ]);
    t.deepEqual(blockOn(doc, 4, 'A trace is simply a program path')?.headingPath, ['Trace-based Just-in-Time Type Specialization for Dynamic Languages', '3. Trace Trees', '3.1 Traces']);
  });

  test('pdf: the IRS manual keeps side headings and drops its running headers and footers', async (t) => {
    const doc = await parse('pdf', 'irs-manual-transmittal-400p.pdf');
    const block = blockOn(doc, 8, 'The Business Master file on-line system provides read-only access');
    t.is(block?.headingPath.at(-1), '2.3.59.2 (01-20-2003) Command Code BMFOL Overview');
    t.false(doc.blocks.some((b) => b.text.includes('Any line marked with a #')));
    t.is(doc.blocks.filter((b) => b.text === 'Internal Revenue Manual').length, 0);
  });

  test('pdf: a user password fails as encrypted', async (t) => {
    const error = await t.throwsAsync(parse('bad', 'password.pdf'), { instanceOf: ParseFailure });
    t.is((error as ParseFailure).code, 'encrypted');
  });

  test('pdf: a truncated file gives the pages pdf.js recovers, with a warning', async (t) => {
    const doc = await parse('bad', 'truncated-TAMReview.pdf');
    t.is(doc.pageCount, 1);
    t.truthy(blockOn(doc, 1, 'Overview of the Technology Acceptance Model'));
    t.true(doc.warnings.some((w) => w.includes('truncated')));
  });

  test('pdf: garbled text layers are reported when OCR is off', async (t) => {
    const doc = await parse('pdf', 'TAMReview.pdf', { ocr: false });
    t.deepEqual(doc.ocrPages, []);
    t.true(doc.warnings.some((w) => w.startsWith('page 8: the text layer looks garbled')));
  });
});
