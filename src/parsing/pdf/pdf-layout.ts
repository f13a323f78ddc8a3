import { readingOrder } from './pdf-columns.ts';
import type { PageBlock } from './pdf-page-block.ts';
import { lineBox, paragraphs } from './pdf-paragraphs.ts';
import { groupRows, rowLine } from './pdf-rows.ts';
import type { Segment } from './pdf-segments.ts';
import { findTables, type Table } from './pdf-tables.ts';
import { looksLikeHeader, rowText } from '../table-text.ts';
import { joinLines } from '../language/text-join.ts';

/**
 * One page's segments into blocks in reading order: columns first, then per column its tables
 * (row by row) and the paragraphs between them.
 */
export function layoutPage(segments: readonly Segment[]): PageBlock[] {
  return readingOrder(segments).flatMap((region) => (region.label ? labelBlock(region.segments) : layoutRegion(region.segments)));
}

/** A side heading's lines make one block, whatever their fonts. */
function labelBlock(segments: Segment[]): PageBlock[] {
  const lines = groupRows(segments).map(rowLine);
  const main = lines.reduce((a, b) => (b.text.length > a.text.length ? b : a));
  return [{ kind: 'paragraph', text: joinLines(lines.map((l) => l.text)), size: main.size, font: main.font, lines: lines.length, label: true, boxes: lines.map(lineBox) }];
}

function layoutRegion(region: Segment[]): PageBlock[] {
  return findTables(groupRows(region)).flatMap((part) =>
    part.kind === 'table' ? tableBlocks(part.table) : paragraphs(part.rows.map(rowLine)),
  );
}

/**
 * One table_row block per row. A first row of distinct labels is a header when the body has
 * numbers or the row is set in another font (bold); the rows under it then name their cells.
 */
function tableBlocks(table: Table): PageBlock[] {
  const [first, ...body] = table.rows;
  const header = first && looksLikeHeader(first, body, table.firstRowFont === table.bodyFont) ? first : undefined;
  return table.rows.map((cells, i) => ({
    kind: 'table_row' as const,
    text: header && i > 0 ? rowText(cells, header) : rowText(cells),
    size: 0,
    font: '',
    lines: 1,
    // One box for the row: its text names cells by their header, so it has no line of the page to match.
    boxes: [{ ...table.rowBoxes[i]!, text: '' }],
  }));
}
