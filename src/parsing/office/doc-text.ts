import type { BlockBuilder } from '../block-builder.ts';
import { createPageCursor, ESTIMATE_EVERYWHERE, lastPage, placeLines } from './page-cursor.ts';
import { looksLikeHeader, rowText } from '../table-text.ts';
import type { WordBinaryText } from './word-binary.ts';

/** word-extractor turns list bullets into their glyph at the start of the paragraph. */
const BULLET = /^[•◦▪●○■□\u2013\u2022\uF0B7\uF0A7-]\s*/;

/**
 * Lays a .doc's text out as blocks. Paragraphs end with a line break; inside a table Word ends
 * each cell with a cell mark and each row with one more, which word-extractor both writes as a
 * tab, so a run of cells is a table whose rows end at a double tab. Text boxes follow the body;
 * footnotes and endnotes, which word-extractor gives apart from their references, come last, as do
 * the headers and footers, once each (they repeat on every page). Returns the last page.
 */
export function docTextBlocks(text: WordBinaryText, builder: BlockBuilder): number {
  const cursor = createPageCursor(ESTIMATE_EVERYWHERE);
  const place = (chars: number) => {
    placeLines(cursor, chars);
    return cursor.page;
  };
  let table: string[][] = [];
  let bulletPending = false;
  const flushTable = () => {
    writeTable(table, builder, place);
    table = [];
  };
  for (const line of lines(`${text.body}\n${text.textboxes}`)) {
    if (line.includes('\t')) {
      table.push(...tableRows(line));
      continue;
    }
    flushTable();
    const item = BULLET.exec(line);
    const own = item ? line.slice(item[0].length) : line;
    // A bullet alone on its line (a tab after the glyph, say) belongs to the paragraph after it.
    if (item && !own.trim()) bulletPending = true;
    else builder.add(item || bulletPending ? 'list_item' : 'paragraph', own, place(line.length));
    if (own.trim()) bulletPending = false;
  }
  flushTable();
  for (const note of lines(`${text.footnotes}\n${text.endnotes}`)) builder.add('footnote', note, place(note.length));
  const seen = new Set<string>();
  for (const line of lines(`${text.headers}\n${text.footers}`)) {
    if (seen.has(line)) continue;
    seen.add(line);
    builder.add('paragraph', line, place(line.length));
  }
  return lastPage(cursor);
}

function lines(text: string): string[] {
  return text
    .split(/\n/)
    .map((line) => line.replace(/[\u0000-\u0008\u000b-\u001f]/g, ' ').trimEnd())
    .filter((line) => line.trim());
}

function tableRows(line: string): string[][] {
  return line
    .split(/\t\t/)
    .map((row) => row.split('\t'))
    .filter((cells) => cells.some((cell) => cell.trim()));
}

function writeTable(rows: string[][], builder: BlockBuilder, place: (chars: number) => number): void {
  if (!rows.length) return;
  const [first, ...body] = rows;
  const header = looksLikeHeader(first!, body, true) ? first : undefined;
  if (header) builder.add('table_row', rowText(header), place(header.join(' ').length));
  for (const row of header ? body : rows) {
    const text = rowText(row, header);
    builder.add('table_row', text, place(text.length));
  }
}
