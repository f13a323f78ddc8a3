import { looksLikeHeader, rowText } from '../table-text.ts';

export type TableCellInput = { text: string; colSpan: number; rowSpan: number; bold: boolean };
export type TableRowInput = { isHeader: boolean; cells: TableCellInput[] };

type Placed = { text: string; bold: boolean };

/**
 * One text per row of a Word table. Cells are laid on a grid first so that spans line up with
 * the header columns: a cell merged across columns is said once, a cell merged down rows is
 * repeated in every row it covers (each row must stand alone), and header rows marked "repeat as
 * header" (or a bold/label-like first row) name the columns of the rows below.
 */
export function tableRowTexts(rows: TableRowInput[]): string[] {
  const grid = layOut(rows);
  const distinct = (r: number) => (grid[r] ?? []).map((placed, c, row) => (placed && row[c - 1] !== placed ? placed.text : undefined));

  let headerRows = 0;
  while (headerRows < rows.length - 1 && rows[headerRows]?.isHeader) headerRows++;
  if (headerRows === 0 && rows.length > 1) {
    const first = (grid[0] ?? []).filter((p, c, row) => p && row[c - 1] !== p) as Placed[];
    const body = grid.slice(1).map((row) => row.filter(Boolean).map((p) => p!.text));
    const bold = first.length > 1 && first.every((p) => p.bold && p.text);
    if (bold || looksLikeHeader(first.map((p) => p.text), body, true)) headerRows = 1;
  }

  // A title row merged across the table is a caption, not part of the column names.
  const naming = grid.slice(0, headerRows).filter((row) => new Set(row.filter(Boolean)).size > 1);
  const width = Math.max(0, ...grid.map((row) => row.length));
  const header = naming.length
    ? Array.from({ length: width }, (_, c) => unique(naming.map((row) => row[c]?.text ?? '')).join(' '))
    : undefined;
  return rows.map((_, r) => (r < headerRows || !header ? rowText(distinct(r)) : rowText(distinct(r), header)));
}

function layOut(rows: TableRowInput[]): (Placed | undefined)[][] {
  const grid: (Placed | undefined)[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    let column = 0;
    for (const cell of row.cells) {
      while (grid[r]![column]) column++;
      const placed = { text: cell.text, bold: cell.bold };
      const colSpan = Math.max(1, cell.colSpan || 1);
      for (let dr = 0; dr < Math.max(1, cell.rowSpan || 1) && r + dr < rows.length; dr++) {
        for (let dc = 0; dc < colSpan; dc++) grid[r + dr]![column + dc] = placed;
      }
      column += colSpan;
    }
  });
  return grid;
}

const unique = (texts: string[]) => [...new Set(texts.map((t) => t.trim()).filter(Boolean))];
