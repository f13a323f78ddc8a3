import test from 'ava';
import { Document, Packer, Paragraph } from 'docx';
import { CHARS_PER_LINE, LINES_PER_PAGE } from '../../src/parsing/office/page-cursor.ts';
import { parseFile } from '../../src/parsing/parse-file.ts';
import { DEFAULT_LIMITS } from '../../src/parsing/types.ts';
import { buildJournal } from '../helpers/journal-docx.ts';
import { tempDir } from '../helpers/temp.ts';
import { blockWith, handmadeDocx, p, pageOf, parsePath, write } from './parsing-fixtures.ts';

/** Word pages from Word's own layout, never from a stale <Pages>; headings from localized style names and outline levels. */

const dir = tempDir('kbqa-parsing-docx-');
test.after.always(() => dir.remove());

const rendered = '<w:lastRenderedPageBreak/>';
const styles = (inner: string) => ({
  name: 'word/styles.xml',
  data: `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${inner}</w:styles>`,
});
const style = (id: string, name: string, pPr = '', basedOn = '') =>
  `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/>${basedOn ? `<w:basedOn w:val="${basedOn}"/>` : ''}${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}</w:style>`;

test('docx: Word rendered breaks give every paragraph its page, whatever a stale <Pages>1</Pages> says', async (t) => {
  // Six pages of five paragraphs, as Word laid them out: each page's first run holds a rendered break.
  const body = Array.from({ length: 30 }, (_, i) => p(`Paragraph ${i + 1} of the journal.`, { before: i > 0 && i % 5 === 0 ? rendered : '' })).join('');
  const doc = await parsePath(write(dir.path, 'journal.docx', handmadeDocx(body, { pages: 1 })));
  t.is(doc.pageCount, 6);
  t.falsy(doc.pageEstimated);
  for (let i = 0; i < 30; i++) t.is(pageOf(doc, `Paragraph ${i + 1} of`), Math.floor(i / 5) + 1, `paragraph ${i + 1}`);
});

test('docx: an explicit break followed by Word rendered break at the same spot counts once, whichever kind it is', async (t) => {
  const body = [
    p('One.'),
    p('', { after: '<w:br w:type="page"/>' }),
    '<w:p/>', // an empty paragraph between the break and the page's first text takes no break of its own
    p('Two after a page break.', { before: rendered }),
    p('Three has pageBreakBefore.', { props: '<w:pageBreakBefore/>', before: rendered }),
    p('Three ends an odd-page section.', { props: '<w:sectPr><w:type w:val="oddPage"/></w:sectPr>' }),
    p('Four after the section.', { before: rendered }),
    p('Five: a style breaks before it.', { props: '<w:pStyle w:val="Chapter"/>', before: rendered }),
    p('Five still.'),
    p('Six: Word broke the page here on its own.', { before: rendered }),
  ].join('');
  const doc = await parsePath(write(dir.path, 'explicit.docx', handmadeDocx(body, { pages: 1, extraParts: [styles(style('Chapter', 'Chapter', '<w:pageBreakBefore/>'))] })));
  t.deepEqual(
    ['One.', 'Two after', 'Three has', 'Three ends', 'Four after', 'Five: a style', 'Five still', 'Six:'].map((w) => pageOf(doc, w)),
    [1, 2, 3, 3, 4, 5, 5, 6],
  );
  t.is(doc.pageCount, 6);
  t.falsy(doc.pageEstimated);
});

test('docx: a section break is a page when the next section starts on one, its w:type read past tracked changes of section properties', async (t) => {
  const continuous = '<w:type w:val="continuous"/>';
  // The old properties of a tracked change (w:sectPrChange) say nothing of the document as it is.
  const changed = (type: string) => `<w:sectPr>${type}<w:cols w:num="2"/><w:sectPrChange w:id="9" w:author="x"><w:sectPr><w:cols w:num="1"/></w:sectPr></w:sectPrChange></w:sectPr>`;
  const body = [
    p('Title section, which starts the document.', { props: '<w:sectPr/>' }),
    p('Two columns after a continuous break.', { props: changed(continuous) }),
    p('One column, continuous again.', { props: changed(continuous) }),
    p('A section that starts on a new page.', { props: '<w:sectPr><w:type w:val="nextPage"/></w:sectPr>' }),
    p('The last section, whose properties are the body sectPr (next page by default).'),
  ].join('');
  const doc = await parsePath(write(dir.path, 'sections.docx', handmadeDocx(body)));
  t.deepEqual(['Title section', 'Two columns', 'One column', 'A section', 'The last section'].map((w) => pageOf(doc, w)), [1, 1, 1, 2, 3]);
  t.is(doc.pageCount, 3);
});

test('docx: without rendered breaks, explicit breaks and a style pageBreakBefore start pages', async (t) => {
  const body = [p('Cover.'), p('Chapter one.', { props: '<w:pStyle w:val="Chapter"/>' }), p('Chapter two.', { props: '<w:pStyle w:val="Sub"/>' })].join('');
  const chapter = style('Chapter', 'Chapter', '<w:pageBreakBefore/>') + style('Sub', 'Sub chapter', '', 'Chapter');
  const doc = await parsePath(write(dir.path, 'chapters.docx', handmadeDocx(body, { extraParts: [styles(chapter)] })));
  t.deepEqual(['Cover', 'Chapter one', 'Chapter two'].map((w) => pageOf(doc, w)), [1, 2, 3], 'inherited through basedOn too');
  t.falsy(doc.pageEstimated, 'short pages between breaks need no estimate');
});

test('docx: a long document with no break information says its pages are estimated', async (t) => {
  const line = 'word '.repeat(CHARS_PER_LINE / 5 - 4); // with its number, under one line
  const paragraphs = 4 * LINES_PER_PAGE; // one line each: about four pages
  const body = Array.from({ length: paragraphs }, (_, i) => p(`${i + 1}. ${line}`.trim())).join('');
  const doc = await parsePath(write(dir.path, 'unlaid.docx', handmadeDocx(body, { pages: 1 })));
  t.true(doc.pageEstimated);
  t.true(doc.pageCount >= 4 && doc.pageCount <= 6, `${doc.pageCount} pages`);
  t.is(pageOf(doc, '1. word'), 1);
  t.is(pageOf(doc, `${paragraphs}. word`), doc.pageCount);
  const pages = doc.blocks.map((b) => b.page);
  t.deepEqual(pages, [...pages].sort((a, b) => a - b), 'pages only go forward');

  // The outcome the parser consumer records: the flag, and chunks on the estimated pages.
  const outcome = await parseFile({ documentId: 'd1', path: write(dir.path, 'unlaid2.docx', handmadeDocx(body)), fileName: 'unlaid2.docx', chunking: { max_tokens: 256, overlap_tokens: 0 }, limits: DEFAULT_LIMITS });
  if (!outcome.ok) return t.fail(outcome.message);
  t.like(outcome, { pageEstimated: true, pageCount: doc.pageCount });
  t.is(Math.max(...outcome.chunks.map((c) => c.page)), doc.pageCount);

  const short = await parsePath(write(dir.path, 'short.docx', handmadeDocx(p('Just a note.'))));
  t.is(short.pageCount, 1);
  t.falsy(short.pageEstimated, 'one page of text is one page');
});

test('docx: headings from localized built-in style names, style outline levels (inherited) and direct outline levels', async (t) => {
  const localized: [string, string][] = [
    ['Ueberschrift1', 'Überschrift 1'],
    ['Titre2', 'Titre 2'],
    ['Zagolovok2', 'Заголовок 2'],
    ['Biaoti3', '标题 3'],
  ];
  const doc = new Document({
    styles: {
      paragraphStyles: [
        ...localized.map(([id, name]) => ({ id, name, basedOn: 'Normal', run: {} })),
        { id: 'PartTitle', name: 'Part title', basedOn: 'Normal', paragraph: { outlineLevel: 0 } },
        { id: 'PartTitleBig', name: 'Part title big', basedOn: 'PartTitle', run: { size: 40 } },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ text: 'Einleitung', style: 'Ueberschrift1' }),
          new Paragraph({ text: 'Contexte', style: 'Titre2' }),
          new Paragraph('Texte sous le titre.'),
          new Paragraph({ text: 'Обзор', style: 'Zagolovok2' }),
          new Paragraph({ text: '背景', style: 'Biaoti3' }),
          new Paragraph('正文。'),
          new Paragraph({ text: 'Part Two', style: 'PartTitleBig' }),
          new Paragraph({ text: 'Direct outline', outlineLevel: 1 }),
          new Paragraph('Body under direct outline.'),
        ],
      },
    ],
  });
  const parsed = await parsePath(write(dir.path, 'localized.docx', await Packer.toBuffer(doc)));
  t.like(blockWith(parsed, 'Einleitung'), { kind: 'heading', level: 1, headingPath: [] });
  t.like(blockWith(parsed, 'Contexte'), { kind: 'heading', level: 2, headingPath: ['Einleitung'] });
  t.deepEqual(blockWith(parsed, 'Texte sous')!.headingPath, ['Einleitung', 'Contexte']);
  t.like(blockWith(parsed, 'Обзор'), { kind: 'heading', level: 2, headingPath: ['Einleitung'] });
  t.like(blockWith(parsed, '背景'), { kind: 'heading', level: 3, headingPath: ['Einleitung', 'Обзор'] });
  t.deepEqual(blockWith(parsed, '正文')!.headingPath, ['Einleitung', 'Обзор', '背景']);
  t.like(blockWith(parsed, 'Part Two'), { kind: 'heading', level: 1, headingPath: [] }, 'outline level 0 inherited through basedOn');
  t.like(blockWith(parsed, 'Direct outline'), { kind: 'heading', level: 2, headingPath: ['Part Two'] });
  t.deepEqual(blockWith(parsed, 'Body under')!.headingPath, ['Part Two', 'Direct outline']);
});

test('docx: a journal laid out by Word only in its first essays, with continuous two-column sections and footnotes, keeps its essays on their pages', async (t) => {
  const journal = buildJournal({ essays: 14, renderedEssays: 4 });
  const doc = await parsePath(write(dir.path, 'journal-in-parts.docx', journal.docx));
  const errors = journal.paragraphs.map((paragraph) => {
    const page = doc.blocks.find((b) => b.text.startsWith(paragraph.text.slice(0, 40)))?.page;
    return { ...paragraph, error: page === undefined ? Infinity : Math.abs(page - paragraph.page) };
  });
  // Where Word laid it out, its breaks decide: a continuous section break is no page.
  t.deepEqual(errors.filter((p) => p.laidOut && p.error > 0).map((p) => p.text.slice(0, 22)), []);
  // Where it did not, the pages are estimated at the size Word's pages had, not collapsed into one.
  for (const title of errors.filter((p) => p.title)) t.true(title.error <= 1, `${title.text.slice(0, 12)}: Word's page ${title.page}, off by ${title.error}`);
  const mean = errors.reduce((sum, p) => sum + p.error, 0) / errors.length;
  t.true(mean <= 0.5, `mean page error ${mean.toFixed(2)}`);
  t.true(Math.abs(doc.pageCount - journal.pages) <= 2, `${doc.pageCount} pages for ${journal.pages}`);
  t.true(doc.pageEstimated);
});
