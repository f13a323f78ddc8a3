import test, { type ExecutionContext } from 'ava';
import type { ParsedDocument } from '../../src/parsing/types.ts';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';
import { blockWith, pageOf, parsePath } from './parsing-fixtures.ts';

/**
 * The docx and xlsx files of ../shared/data/docs: page counts and phrases on their pages (the
 * Office files the tests generate themselves: parsing-office.unit.test.ts).
 */

type Expectation = { pages: number; word?: number; estimated?: boolean; onPage: [string, number][]; check?: (t: ExecutionContext, doc: ParsedDocument) => void };

/**
 * `pages` is what the parser counts from Word's rendered and explicit breaks; `word` is
 * docProps/app.xml's <Pages> (unzip -p FILE docProps/app.xml) where Word laid the file out, which
 * the count must stay within 10 % of. handbook-872p has neither <Pages> nor rendered breaks: its
 * pages are estimated between its explicit breaks.
 */
const DOCX: Record<string, Expectation> = {
  'category-level.docx': {
    pages: 1,
    onPage: [['Call me Ishmael', 1]],
    check: (t, doc) => {
      t.like(blockWith(doc, 'A Heading 2'), { kind: 'heading', level: 2, headingPath: ['A Heading 1'] });
      t.like(blockWith(doc, 'Next level'), { kind: 'list_item', level: 1, headingPath: ['A Heading 1'] });
    },
  },
  'city-code-adu-stress023.docx': {
    pages: 15,
    word: 15,
    onPage: [
      ['As of Dec 2019', 1],
      ['Figure 18.33-1: Draft Parking Map', 10],
      ['18.02.040 Definitions', 14],
      ['18.06.050 Exceptions to development standards', 15],
    ],
  },
  'docx-tables.docx': {
    pages: 1,
    onPage: [['Header Col 1 | Header Col 2', 1]],
    check: (t, doc) => {
      t.truthy(doc.blocks.find((b) => b.kind === 'table_row' && b.text.includes('g&t')), 'nested table text stays in its row');
      t.truthy(blockWith(doc, 'Table with merged cells'));
    },
  },
  'example-list-items-multiple.docx': {
    pages: 1,
    onPage: [['Lorem Ipsum 3', 1]],
    check: (t, doc) => {
      t.like(blockWith(doc, 'The quick brown fox'), { kind: 'list_item', level: 1 });
      t.like(blockWith(doc, 'Trying more lists.'), { kind: 'list_item', level: 3 });
    },
  },
  'handbook-872p.docx': {
    pages: 427,
    estimated: true,
    onPage: [
      ['Table of Contents', 2],
      ['CHAPTER 6 - BUDGETS', 98],
      ['e. Audit Report', 112],
    ],
    check: (t, doc) => {
      t.true(doc.pageEstimated, 'no rendered breaks, and far more text than its 82 explicit breaks hold');
      t.like(blockWith(doc, 'CHAPTER 6 - BUDGETS'), { kind: 'heading', level: 1, headingPath: [] });
      t.true(doc.blocks.filter((b) => b.kind === 'heading').length > 250);
    },
  },
  'mammoth-footnotes.docx': {
    pages: 1,
    onPage: [['Ouch.', 1]],
    check: (t, doc) => t.deepEqual(doc.blocks.filter((b) => b.kind === 'footnote').map((b) => b.text), ['A tachyon walks into a bar.', 'Fin.']),
  },
  'mammoth-tables.docx': {
    pages: 1,
    onPage: [['Top left | Top right', 1]],
    check: (t, doc) => t.deepEqual(doc.blocks.map((b) => b.kind), ['paragraph', 'table_row', 'table_row', 'paragraph']),
  },
  'seer-cancer-stats-bug59058.docx': {
    // 49 rendered breaks make 50 pages; Word's <Pages> says 52: two stretches between rendered
    // breaks hold two and a half of its median page each (Word laid them out before its last
    // edits), and are estimated.
    pages: 53,
    estimated: true,
    word: 52,
    onPage: [
      ['Year: 1990; New Cases - SEER 9: 131.9', 2],
      ['Idaho | 120 | Pennsylvania | 126', 5],
      ['EPIDEMIOLOGY', 6],
      ['1. Introduction', 26],
    ],
  },
  'testWORD.docx': {
    pages: 2,
    word: 2,
    onPage: [
      ['This paragraph is in the default text style', 1],
      ['This is back to the default again', 2],
    ],
    check: (t, doc) => t.like(blockWith(doc, 'Heading Level 3'), { kind: 'heading', level: 3, headingPath: ['Heading Level 1', 'Heading Level 2'] }),
  },
  'testWORD_numbered_list.docx': {
    pages: 3,
    word: 3,
    onPage: [
      ['I’m a little text box', 2],
      ['Finally some missing items', 3],
    ],
  },
};

const XLSX: Record<string, Expectation> = {
  '2023-half-year-analyses-by-segment.xlsx': {
    pages: 5,
    onPage: [
      ['In millions of CHF: Zone NA; Sales (a): 12,553', 1],
      ['Reconciliation 30 06 2023', 5],
    ],
  },
  'SampleSS.xlsx': {
    pages: 3,
    onPage: [
      ['2nd row 2nd column', 1],
      ['cb=sum: 13', 2],
    ],
  },
  'formula_stress_test.xlsx': {
    pages: 10,
    onPage: [
      ['DATE | 2013-06-09', 2],
      ['CONCATENATE | Foobarbazqux', 10],
    ],
  },
  'merge_cells.xlsx': { pages: 1, onPage: [['A1:B2 | C1:C2 | Separate blocks', 1]] },
  'more-than-1k-cells.xlsx': { pages: 1, onPage: [['Sheet1', 1]] },
  'sheet_visibility.xlsx': {
    pages: 1,
    onPage: [['v: 118; i: 105', 1]],
    check: (t, doc) => {
      t.is(doc.warnings.length, 2);
      t.false(doc.blocks.some((b) => /Hidden|VeryHidden/.test(b.text)));
    },
  },
  'stanley-cups.xlsx': {
    pages: 2,
    onPage: [
      ['Team: Maple Leafs; Location: TOR; Stanley Cups: 13', 1],
      ['Team: Maple Leafs; Location: TOR; Stanley Cups: 0', 2],
    ],
  },
  'testEXCEL.xlsx': { pages: 3, onPage: [['Number: 15; Square: 225', 1]] },
  'vodafone.xlsx': { pages: 1, onPage: [['Topic: Mobile ARPU; Period: Nine quarters to 30 June 2023; Page: 13', 1]] },
};

withSharedData(test, 'office: shared docx and xlsx fixtures', () => {
  for (const [folder, expectations] of [
    ['docx', DOCX],
    ['xlsx', XLSX],
  ] as const) {
    for (const [name, expected] of Object.entries(expectations)) {
      // The large handbook runs serially (before the concurrent tests), so its time is its own.
      const register = name === 'handbook-872p.docx' ? test.serial : test;
      register(`office: ${folder}/${name} has ${expected.pages} page(s) and its text on the right pages`, async (t) => {
        const started = performance.now();
        const doc = await parsePath(sharedDoc(folder, name));
        const ms = performance.now() - started;
        if (name === 'handbook-872p.docx') {
          // About 1.5 s on an idle machine; the bound is loose because other test files share the CPU.
          t.log(`handbook-872p.docx parsed in ${ms.toFixed(0)} ms`);
          t.true(ms < 15_000, 'the 872-page handbook parses in seconds, not minutes');
        }
        t.is(doc.pageCount, expected.pages);
        if (expected.word) t.true(Math.abs(doc.pageCount - expected.word) <= 0.1 * expected.word, `within 10 % of Word's ${expected.word} pages`);
        if (folder === 'docx') t.is(Boolean(doc.pageEstimated), Boolean(expected.estimated), 'estimated only where Word did not lay it out');
        for (const [needle, page] of expected.onPage) t.is(pageOf(doc, needle), page, needle);
        for (const block of doc.blocks) {
          t.true(block.page >= 1 && block.page <= doc.pageCount);
          t.true(block.text.length > 0 && block.text === block.text.trim());
        }
        expected.check?.(t, doc);
      });
    }
  }
});
