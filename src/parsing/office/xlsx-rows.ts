import { rowText } from '../table-text.ts';
import type { CellView } from './xlsx-cells.ts';

export type SheetRow = { number: number; cells: { column: number; view: CellView }[] };
export type SheetLine = { kind: 'paragraph' | 'table_row'; text: string };

/**
 * A sheet is read as a run of small tables. A row with a single value (a title, a note, a
 * footnote, often merged across the sheet) is a paragraph and may start a new table; so may a
 * blank row. Where a table may start, a row of mostly text labels becomes its header when there
 * is evidence for it: the labels are bold, or the row below holds numbers, dates or booleans
 * under them (and the labels cover most of that row's columns). A header row followed by more
 * label rows that fill its gaps or sit under its merged group titles is read as one multi-row
 * header ("2023" over "Q1" names the column "2023 Q1"). Rows under a header say each value with
 * its column's name.
 */
const MAX_HEADER_ROWS = 4;

export function sheetLines(rows: SheetRow[]): SheetLine[] {
  const lines: SheetLine[] = [];
  let header: string[] | undefined;
  let mayStartTable = true;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (i > 0 && row.number > rows[i - 1]!.number + 1) mayStartTable = true;
    const values = distinct(row);
    if (values.length <= 1) {
      lines.push({ kind: 'paragraph', text: values[0]?.view.text ?? '' });
      mayStartTable = true;
      continue;
    }
    if (mayStartTable && isLabelRow(row)) {
      const headerRows = [row];
      while (headerRows.length < MAX_HEADER_ROWS && continuesHeader(headerRows[headerRows.length - 1]!, rows[i + headerRows.length])) {
        headerRows.push(rows[i + headerRows.length]!);
      }
      let next = i + headerRows.length;
      while (next < rows.length && distinct(rows[next]!).length <= 1) next++;
      const below = rows[next];
      if (below && isHeaderOver(headerRows, below, rows[i + headerRows.length])) {
        header = columnNames(headerRows);
        lines.push({ kind: 'table_row', text: rowText(header.filter(Boolean)) });
        i += headerRows.length - 1;
        mayStartTable = false;
        continue;
      }
    }
    mayStartTable = false;
    lines.push({ kind: 'table_row', text: rowText(sparse(values), header) });
  }
  return lines.filter((line) => line.text.trim());
}

/** Cells with a value, a horizontally merged range counted once. */
function distinct(row: SheetRow) {
  return row.cells.filter((cell, k) => !cell.view.span || row.cells[k - 1]?.view.span !== cell.view.span || row.cells[k - 1]!.column !== cell.column - 1);
}

function sparse(cells: SheetRow['cells']): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (const cell of cells) out[cell.column] = cell.view.text;
  return out;
}

/** Mostly text, or grouped by merges across columns (a "2023" over its quarters is a label too). */
function isLabelRow(row: SheetRow): boolean {
  const cells = distinct(row);
  const labels = cells.filter((c) => c.view.kind === 'text').length;
  return cells.length >= 2 && (labels / cells.length >= 0.6 || cells.length < row.cells.length);
}

function continuesHeader(last: SheetRow, next: SheetRow | undefined): boolean {
  if (!next || next.number !== last.number + 1 || !isLabelRow(next)) return false;
  const groups = distinct(last).length < last.cells.length;
  const taken = new Set(last.cells.map((c) => c.column));
  return groups || next.cells.some((c) => !taken.has(c.column));
}

function isHeaderOver(headerRows: SheetRow[], below: SheetRow, directlyBelow: SheetRow | undefined): boolean {
  const labels = headerRows.flatMap((r) => r.cells).filter((c) => c.view.kind === 'text');
  if (labels.every((c) => c.view.bold)) return true;
  if (directlyBelow && directlyBelow !== below && distinct(directlyBelow).length <= 1) return false;
  const named = new Set(headerRows.flatMap((r) => r.cells.map((c) => c.column)));
  const labelled = new Set(labels.map((c) => c.column));
  // A header names most of the columns below it; a few scattered labels are data or notes.
  if (below.cells.filter((c) => named.has(c.column)).length < 0.6 * below.cells.length) return false;
  return below.cells.some((c) => c.view.kind !== 'text' && labelled.has(c.column));
}

/** Column names from one or more header rows, a merged group title repeated over its columns. */
function columnNames(headerRows: SheetRow[]): string[] {
  const names: string[][] = [];
  for (const row of headerRows) {
    for (const cell of row.cells) {
      const parts = (names[cell.column] ??= []);
      if (!parts.includes(cell.view.text.trim())) parts.push(cell.view.text.trim());
    }
  }
  return Array.from(names, (parts) => (parts ?? []).join(' '));
}
