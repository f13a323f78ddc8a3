import { readFile, stat } from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import { createBlockBuilder } from '../block-builder.ts';
import { assertCompoundChains } from './cfb-chains.ts';
import { failingAs } from '../failures.ts';
import { sheetRowsOf } from './xls-cells.ts';
import { sheetLines } from './xlsx-rows.ts';
import { MEDIA_TYPES, type ParseLimits, ParseFailure, type Parser } from '../types.ts';

/** More cells than this in one workbook is a data dump, not a document; BIFF8 allows 16.7 million a sheet. */
const MAX_CELLS = 2_000_000;

/**
 * Excel 97-2003 workbooks (.xls, BIFF8/BIFF5) through SheetJS, read like .xlsx (see xlsx.ts): each
 * visible sheet a page under its name, hidden sheets skipped with a warning, rows as table rows
 * with their column names. .xlsx stays on exceljs, which gives fonts (bold headers) and reads
 * through our size-checked unzip.
 */
export const parseXls: Parser = async ({ path, limits, onProgress }) => {
  const workbook = await readWorkbook(path, limits);
  // Excel never saves a workbook without a sheet; SheetJS skips records it cannot read, so damage shows as none.
  if (workbook.SheetNames.length === 0) throw new ParseFailure('corrupt', 'The Excel 97-2003 workbook has no readable sheet.');
  const warnings: string[] = [];
  const meta = workbook.Workbook?.Sheets ?? [];
  const visible = workbook.SheetNames.filter((name, index) => {
    const hidden = meta[index]?.Hidden ?? 0;
    if (hidden) warnings.push(`Sheet "${name}" is ${hidden === 2 ? 'very hidden' : 'hidden'} and was skipped.`);
    return !hidden;
  });
  if (visible.length > limits.maxPages) throw new ParseFailure('too_large', `The workbook has ${visible.length} sheets; the limit is ${limits.maxPages}.`);

  const options = { date1904: Boolean(workbook.Workbook?.WBProps?.date1904), isDateFormat: (format: string) => XLSX.SSF.is_date(format) };
  const builder = createBlockBuilder();
  let cells = 0;
  visible.forEach((name, index) => {
    const page = index + 1;
    const rows = sheetRowsOf(workbook.Sheets[name]!, options);
    cells += rows.reduce((sum, row) => sum + row.cells.length, 0);
    if (cells > MAX_CELLS) throw new ParseFailure('too_large', `The workbook has more than ${MAX_CELLS} cells.`);
    const lines = sheetLines(rows);
    if (lines.length) {
      builder.resetHeadings();
      builder.heading(name, 1, page);
      for (const line of lines) builder.add(line.kind, line.text, page);
    }
    onProgress?.(page, visible.length);
  });
  if (builder.count === 0 && warnings.length) throw new ParseFailure('empty', 'The visible sheets hold no data; only hidden sheets do.');
  return builder.finish({ mediaType: MEDIA_TYPES.xls, pageCount: visible.length, warnings, limits });
};

async function readWorkbook(path: string, limits: ParseLimits): Promise<XLSX.WorkBook> {
  // BIFF is not compressed: the file's size bounds what SheetJS builds, as an archive's declared sizes do for .xlsx.
  const { size } = await stat(path);
  if (size > limits.maxUncompressedBytes) throw new ParseFailure('too_large', `The workbook is ${size} bytes; the limit is ${limits.maxUncompressedBytes}.`);
  const bytes = await readFile(path);
  // SheetJS reads anything it is given (a damaged file becomes a one-cell CSV), so only a sound OLE2 file goes to it.
  assertCompoundChains(bytes);
  return failingAs('Excel 97-2003 workbook', async () => {
    try {
      return XLSX.read(bytes, { type: 'buffer', dense: true, cellNF: true, cellDates: false, cellHTML: false, cellFormula: false, WTF: false });
    } catch (error) {
      if (/password|encrypt/i.test(error instanceof Error ? error.message : '')) throw new ParseFailure('encrypted', 'The workbook is password-protected.');
      throw error;
    }
  });
}
