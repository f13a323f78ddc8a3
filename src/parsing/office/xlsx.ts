import ExcelJS from 'exceljs';
import { createBlockBuilder } from '../block-builder.ts';
import { failingAs } from '../failures.ts';
import { viewCell } from './xlsx-cells.ts';
import { type SheetRow, sheetLines } from './xlsx-rows.ts';
import { openArchive } from './zip-archive.ts';
import { assertArchiveSafe, assertXmlPartsHaveNoDtd } from './zip-safety.ts';
import { MEDIA_TYPES, type ParseLimits, ParseFailure, type Parser } from '../types.ts';

/**
 * Excel workbooks: each visible sheet is a page (hidden sheets are not what the author shows,
 * so they are skipped with a warning), its name a heading, its rows table rows that carry their
 * column names.
 */
export const parseXlsx: Parser = async ({ path, limits, onProgress }) => {
  await assertWorkbookSafe(path, limits);
  const workbook = new ExcelJS.Workbook();
  await failingAs('Excel workbook', () => workbook.xlsx.readFile(path));

  const warnings: string[] = [];
  const visible = workbook.worksheets.filter((sheet) => {
    if (sheet.state === 'hidden' || sheet.state === 'veryHidden') {
      warnings.push(`Sheet "${sheet.name}" is ${sheet.state === 'hidden' ? 'hidden' : 'very hidden'} and was skipped.`);
      return false;
    }
    return true;
  });
  if (visible.length > limits.maxPages) throw new ParseFailure('too_large', `The workbook has ${visible.length} sheets; the limit is ${limits.maxPages}.`);

  const builder = createBlockBuilder();
  visible.forEach((sheet, index) => {
    const page = index + 1;
    const lines = sheetLines(rowsOf(sheet));
    if (lines.length) {
      builder.resetHeadings();
      builder.heading(sheet.name, 1, page);
      for (const line of lines) builder.add(line.kind, line.text, page);
    }
    onProgress?.(page, visible.length);
  });
  if (builder.count === 0 && warnings.length) throw new ParseFailure('empty', 'The visible sheets hold no data; only hidden sheets do.');
  return builder.finish({ mediaType: MEDIA_TYPES.xlsx, pageCount: visible.length, warnings, limits });
};

/** exceljs inflates and parses every part itself, so the package is vetted before it sees it. */
async function assertWorkbookSafe(path: string, limits: ParseLimits) {
  const archive = await openArchive(path);
  try {
    assertArchiveSafe(archive.entries, limits);
    if (!archive.has('xl/workbook.xml')) throw new ParseFailure('corrupt', 'The file is not an Excel workbook (no xl/workbook.xml).');
    await assertXmlPartsHaveNoDtd(archive);
  } finally {
    archive.close();
  }
}

function rowsOf(sheet: ExcelJS.Worksheet): SheetRow[] {
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: SheetRow['cells'] = [];
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      const view = viewCell(cell);
      if (view) cells.push({ column, view });
    });
    if (cells.length) rows.push({ number, cells });
  });
  return rows;
}
