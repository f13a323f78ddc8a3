import type { CellObject, Range, WorkSheet } from '@e965/xlsx';
import { formatNumber } from './number-format.ts';
import { type CellView, isoDate } from './xlsx-cells.ts';
import type { SheetRow } from './xlsx-rows.ts';

const DAY_MS = 86_400_000;
/** Excel's day 0: 1899-12-30 in the 1900 system (its phantom 29 February included), 1904-01-01 in the other. */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

export type SheetOptions = { date1904: boolean; isDateFormat: (format: string) => boolean };

/**
 * A SheetJS sheet (read dense, raw values and number formats, no dates) as the rows the .xlsx
 * reader builds from exceljs, so an .xls reads exactly like its .xlsx: formulas give their cached
 * result, dates become ISO dates (from the serial, in UTC, as exceljs does), numbers are formatted
 * as displayed and a merged range's value shows in every cell it covers. Cell fonts are not read
 * (SheetJS's community build keeps little of BIFF's formatting), so a header row is recognised by
 * the numbers, dates or booleans under it alone, not by bold labels.
 */
export function sheetRowsOf(sheet: WorkSheet, options: SheetOptions): SheetRow[] {
  const data = (sheet['!data'] ?? []) as (CellObject | undefined)[][];
  const spans = mergedSpans(sheet['!merges'] ?? [], data, options);
  const rows: SheetRow[] = [];
  for (let r = 0; r < data.length; r++) {
    const cells = data[r];
    const merged = spans.get(r);
    const views = new Map<number, CellView>();
    cells?.forEach((cell, c) => {
      const view = cell && viewOf(cell, options);
      if (view) views.set(c, view);
    });
    // Inside a merged range only the top-left cell holds a value, which every covered cell shows.
    for (const [c, view] of merged ?? []) views.set(c, view);
    const row: SheetRow = { number: r + 1, cells: [...views].sort(([a], [b]) => a - b).map(([c, view]) => ({ column: c + 1, view })) };
    if (row.cells.length) rows.push(row);
  }
  return rows;
}

function viewOf(cell: CellObject, options: SheetOptions): CellView | undefined {
  const shown = display(cell, options);
  return shown && shown.text.trim() ? { ...shown, bold: false } : undefined;
}

function display(cell: CellObject, { date1904, isDateFormat }: SheetOptions): Omit<CellView, 'bold'> | undefined {
  const value = cell.v;
  if (value === undefined || value === null) return undefined;
  switch (cell.t) {
    case 'n': {
      const number = Number(value);
      if (cell.z && isDateFormat(String(cell.z))) return { text: isoDate(new Date((date1904 ? EPOCH_1904 : EPOCH_1900) + Math.round(number * DAY_MS))), kind: 'date' };
      return { text: formatNumber(number, cell.z === undefined ? undefined : String(cell.z)), kind: 'number' };
    }
    case 'b':
      return { text: value ? 'TRUE' : 'FALSE', kind: 'bool' };
    case 'e':
      return { text: cell.w ?? String(value), kind: 'error' };
    case 'd':
      return { text: isoDate(value instanceof Date ? value : new Date(String(value))), kind: 'date' };
    default:
      return { text: String(value), kind: 'text' };
  }
}

/**
 * Each merged range's value, keyed by row then column, over every cell the range covers. A range
 * is clipped to the cells the sheet has, so a hostile file's sheet-wide merge costs nothing.
 */
function mergedSpans(merges: Range[], data: (CellObject | undefined)[][], options: SheetOptions): Map<number, Map<number, CellView>> {
  const spans = new Map<number, Map<number, CellView>>();
  const lastColumn = data.reduce((max, row) => Math.max(max, (row?.length ?? 0) - 1), 0);
  for (const { s, e } of merges) {
    const master = data[s.r]?.[s.c];
    const view = master && viewOf(master, options);
    if (!view) continue;
    view.span = `R${s.r + 1}C${s.c + 1}`;
    for (let r = s.r; r <= Math.min(e.r, data.length - 1); r++) {
      const row = spans.get(r) ?? new Map<number, CellView>();
      for (let c = s.c; c <= Math.min(e.c, lastColumn); c++) row.set(c, view);
      spans.set(r, row);
    }
  }
  return spans;
}
