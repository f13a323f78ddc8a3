import test from 'ava';
import { AlignmentType, Document, FootnoteReferenceRun, HeadingLevel, LevelFormat, Packer, PageBreak, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import ExcelJS from 'exceljs';
import { markPageHints } from '../../src/parsing/office/docx-pages.ts';
import { formatNumber } from '../../src/parsing/office/number-format.ts';
import { tempDir } from '../helpers/temp.ts';
import { blockWith, handmadeDocx, p, pageOf, parsePath, write } from './parsing-fixtures.ts';

const dir = tempDir('kbqa-parsing-office-');
test.after.always(() => dir.remove());

async function generatedDocx(): Promise<Buffer> {
  const cell = (text: string, options: { columnSpan?: number; rowSpan?: number } = {}) => new TableCell({ ...options, children: [new Paragraph(text)] });
  const doc = new Document({
    numbering: {
      config: [
        {
          reference: 'steps',
          levels: [0, 1, 2].map((level) => ({ level, format: LevelFormat.DECIMAL, text: `%${level + 1}.`, alignment: AlignmentType.START })),
        },
      ],
    },
    footnotes: { 1: { children: [new Paragraph('Quokkas were counted at dawn.')] } },
    sections: [
      {
        children: [
          new Paragraph({ text: 'Field Guide', heading: HeadingLevel.TITLE }),
          new Paragraph({ text: 'Marsupials', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun('The quokka is a small wallaby.'), new FootnoteReferenceRun(1)] }),
          new Paragraph({ text: 'Habitat', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Find an island', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ text: 'Rottnest is best', numbering: { reference: 'steps', level: 1 } }),
          new Paragraph({ text: 'Arrive by ferry', numbering: { reference: 'steps', level: 2 } }),
          new Paragraph({ text: 'Watch quietly', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ children: [new PageBreak()] }),
          new Paragraph({ text: 'Counts', heading: HeadingLevel.HEADING_1 }),
          new Table({
            rows: [
              new TableRow({ tableHeader: true, children: [cell('Island'), cell('Season'), cell('Count')] }),
              new TableRow({ children: [cell('Rottnest', { rowSpan: 2 }), cell('Summer'), cell('1200')] }),
              new TableRow({ children: [cell('Winter'), cell('950')] }),
              new TableRow({ children: [cell('Bald Island'), cell('Both seasons', { columnSpan: 2 })] }),
            ],
          }),
          new Paragraph({ text: 'Appendix', heading: HeadingLevel.HEADING_1, pageBreakBefore: true }),
          new Paragraph('Platypus notes live here.'),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

test('docx: headings with paths, nested list levels, table rows with headers, footnotes, explicit page breaks', async (t) => {
  const doc = await parsePath(write(dir.path, 'guide.docx', await generatedDocx()));
  t.is(doc.mediaType, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  t.deepEqual(doc.ocrPages, []);

  const title = blockWith(doc, 'Field Guide')!;
  t.like(title, { kind: 'heading', level: 1, headingPath: [] });
  t.like(blockWith(doc, 'Habitat'), { kind: 'heading', level: 2, headingPath: ['Marsupials'] });
  t.deepEqual(blockWith(doc, 'small wallaby')!.headingPath, ['Marsupials']);

  t.like(blockWith(doc, 'Find an island'), { kind: 'list_item', level: 0, headingPath: ['Marsupials', 'Habitat'] });
  t.like(blockWith(doc, 'Rottnest is best'), { kind: 'list_item', level: 1 });
  t.like(blockWith(doc, 'Arrive by ferry'), { kind: 'list_item', level: 2 });

  const footnote = blockWith(doc, 'Quokkas were counted')!;
  t.is(footnote.kind, 'footnote');
  t.is(doc.blocks.indexOf(footnote), doc.blocks.indexOf(blockWith(doc, 'small wallaby')!) + 1, 'a footnote follows the paragraph that cites it');

  const rows = doc.blocks.filter((b) => b.kind === 'table_row').map((b) => b.text);
  t.deepEqual(rows, [
    'Island | Season | Count',
    'Island: Rottnest; Season: Summer; Count: 1200',
    'Island: Rottnest; Season: Winter; Count: 950',
    'Island: Bald Island; Season: Both seasons',
  ]);

  t.is(pageOf(doc, 'small wallaby'), 1);
  t.is(pageOf(doc, 'Counts'), 2, 'an explicit page break starts page 2');
  t.is(pageOf(doc, 'Rottnest; Season: Winter'), 2);
  t.is(pageOf(doc, 'Platypus'), 3, 'pageBreakBefore starts page 3');
  t.is(doc.pageCount, 3, 'without docProps Pages, the count of breaks + 1');
  for (const block of doc.blocks) t.true(block.text.length > 0 && block.text === block.text.trim());
});

test('docx: Word rendered page breaks count once, also after an explicit break', async (t) => {
  const body = [
    p('Alpha on page one.'),
    p('Bravo still on one', { after: '<w:lastRenderedPageBreak/><w:t>, continuing on page two.</w:t>' }),
    p('Charlie on two.'),
    p('', { after: '<w:br w:type="page"/>' }),
    p('Delta on three.', { before: '<w:lastRenderedPageBreak/>' }),
    // A section's w:type says how it starts: the break after Echo is the next section's (nextPage),
    // whatever Echo's own section says; the one after Golf is Hotel's (continuous: no page).
    p('Echo ends a section.', { props: '<w:sectPr><w:type w:val="continuous"/></w:sectPr>' }),
    p('Foxtrot on four.', { before: '<w:lastRenderedPageBreak/>' }),
    p('Golf ends a section that started on a new page.', { props: '<w:sectPr><w:type w:val="nextPage"/></w:sectPr>' }),
    p('Hotel still on four, in a continuous section.', { props: '<w:sectPr><w:type w:val="continuous"/></w:sectPr>' }),
    `<w:p><w:r><w:del w:id="1" w:author="x"><w:r><w:lastRenderedPageBreak/><w:delText>gone</w:delText></w:r></w:del></w:r></w:p>`.replace('<w:r><w:del', '<w:del').replace('</w:del></w:r>', '</w:del>'),
    p('India after a deleted run that Word laid out on page five.'),
    p('Juliet is an outline heading.', { props: '<w:outlineLvl w:val="1"/>' }),
  ].join('');
  const doc = await parsePath(write(dir.path, 'rendered.docx', handmadeDocx(body, { pages: 5 })));
  t.is(doc.pageCount, 5);
  t.deepEqual(
    ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Foxtrot', 'Hotel', 'India'].map((w) => pageOf(doc, w)),
    [1, 1, 2, 3, 4, 4, 5],
  );
  t.like(blockWith(doc, 'Juliet'), { kind: 'heading', level: 2 });
  t.false(doc.blocks.some((b) => /[\uE000-\uF8FF]/.test(b.text)), 'no page marker leaks into text');
});

test('docx: page hints rewrite leaves documents without hints untouched', (t) => {
  const xml = `<w:document><w:body>${p('plain')}</w:body></w:document>`;
  t.is(markPageHints(xml), xml);
});

async function generatedXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sales = workbook.addWorksheet('Sales');
  sales.getCell('A1').value = 'Quarterly sales by region';
  sales.mergeCells('A1:E1');
  sales.getCell('A2').value = 'Region';
  sales.mergeCells('A2:A3');
  sales.getCell('B2').value = '2023';
  sales.mergeCells('B2:C2');
  sales.getCell('D2').value = '2024';
  sales.mergeCells('D2:E2');
  ['Q1', 'Q2', 'Q1', 'Q2'].forEach((q, i) => (sales.getRow(3).getCell(i + 2).value = q));
  sales.addRow(['West', 12, 14.5, 0.125, { formula: 'B4+C4', result: 26.5 }]);
  sales.getCell('D4').numFmt = '0.0%';
  sales.getCell('C4').numFmt = '#,##0.00';
  sales.addRow(['East', 1234567, 3, 0.5, { formula: 'B5+C5', result: 1234570 }]);
  sales.getCell('B5').numFmt = '#,##0';
  const notes = workbook.addWorksheet('Notes');
  notes.addRow(['Item', 'Due']);
  notes.addRow(['Audit', new Date(Date.UTC(2024, 2, 15))]);
  notes.getCell('B2').numFmt = 'yyyy-mm-dd';
  const secret = workbook.addWorksheet('Secret', { state: 'hidden' });
  secret.addRow(['Password', 'hunter2']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

test('xlsx: visible sheets are pages, hidden ones skipped with a warning, merged multi-row headers name the columns', async (t) => {
  const doc = await parsePath(write(dir.path, 'sales.xlsx', await generatedXlsx()));
  t.is(doc.pageCount, 2);
  t.is(doc.warnings.length, 1);
  t.regex(doc.warnings[0]!, /Secret/);
  t.false(doc.blocks.some((b) => b.text.includes('hunter2')));

  t.like(doc.blocks[0], { kind: 'heading', text: 'Sales', level: 1, page: 1, headingPath: [] });
  t.like(blockWith(doc, 'Quarterly sales'), { kind: 'paragraph', page: 1, headingPath: ['Sales'] });
  t.is(blockWith(doc, 'West')!.text, 'Region: West; 2023 Q1: 12; 2023 Q2: 14.50; 2024 Q1: 12.5%; 2024 Q2: 26.5');
  t.is(blockWith(doc, 'East')!.text, 'Region: East; 2023 Q1: 1,234,567; 2023 Q2: 3; 2024 Q1: 0.5; 2024 Q2: 1234570');

  t.like(blockWith(doc, 'Audit'), { kind: 'table_row', page: 2, text: 'Item: Audit; Due: 2024-03-15', headingPath: ['Notes'] });
});

test('number formats: numbers read as Excel shows them', (t) => {
  t.is(formatNumber(12553, '#,##0 ;(#,##0)'), '12,553');
  t.is(formatNumber(-81, '#,##0 ;(#,##0)'), '(81)');
  t.is(formatNumber(0, '_(* #,##0_);_(* (#,##0);_(* "—"_);_(@_)'), '—');
  t.is(formatNumber(0.0525, '0.00%'), '5.25%');
  t.is(formatNumber(1234.5, '"$"#,##0.00'), '$1,234.50');
  t.is(formatNumber(1234.5, '[$€-407] #,##0.00'), '€ 1,234.50');
  t.is(formatNumber(0.1 + 0.2, undefined), '0.3');
  t.is(formatNumber(123456, '0.00E+00'), '1.23E+05');
  t.is(formatNumber(5, '0 "kg"'), '5 kg');
});
