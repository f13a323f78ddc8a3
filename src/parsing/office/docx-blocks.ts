import type { BlockBuilder } from '../block-builder.ts';
import { readInline } from './docx-inline.ts';
import type { DocxDocument, DocxNode, NoteReference } from './docx-model.ts';
import type { DocxStyles } from './docx-styles.ts';
import { createPageCursor, lastPage, measuredStretches, pageBreak, type PageCursor, placeLines, planPages, reserveLines } from './page-cursor.ts';
import { type TableRowInput, tableRowTexts } from './docx-tables.ts';
import type { BlockKind } from '../types.ts';

type Cell = { text: string; page: number | undefined; bold: boolean; notes: NoteReference[] };

type BlockSink = Pick<BlockBuilder, 'add' | 'heading'>;
const NO_BLOCKS: BlockSink = { add: () => {}, heading: () => {} };

/**
 * Turns mammoth's document model into blocks in reading order. Footnotes follow the paragraph
 * that cites them (Word prints them at the foot of that page); endnotes come last, as in print.
 * Returns the page the walk ended on, and whether pages had to be estimated (see PageCursor).
 *
 * Two walks: the first only measures the stretches between page starts, so that the second knows
 * before it reaches one whether Word laid it out (`laidOut`: the body holds rendered breaks) or
 * its pages must be estimated, and how much a page of this document holds.
 */
export function docxBlocks(document: DocxDocument, styles: DocxStyles, builder: BlockSink, { laidOut = true } = {}): { lastPage: number; estimated: boolean } {
  const measuring = createPageCursor();
  walkDocument(document, styles, NO_BLOCKS, measuring);
  const cursor = createPageCursor(planPages(measuredStretches(measuring), laidOut));
  walkDocument(document, styles, builder, cursor);
  return { lastPage: lastPage(cursor), estimated: cursor.estimated };
}

function walkDocument(document: DocxDocument, styles: DocxStyles, builder: BlockSink, cursor: PageCursor) {
  const seenNotes = new Set<string>();
  const endnotes: NoteReference[] = [];

  const notes = (references: NoteReference[], page: number) => {
    for (const reference of references) {
      const key = `${reference.noteType}:${reference.noteId}`;
      if (seenNotes.has(key)) continue;
      seenNotes.add(key);
      if (reference.noteType === 'endnote') {
        endnotes.push(reference);
        continue;
      }
      const text = noteText(document, reference);
      builder.add('footnote', text, page);
      reserveLines(cursor, text.length);
    }
  };

  const paragraph = (node: DocxNode) => {
    // A style's pageBreakBefore; the paragraph's own arrives as a marker, which this absorbs.
    if (styles.breaksBefore(node.styleId ?? null) && cursor.sawText && !cursor.afterBreak) pageBreak(cursor);
    const inline = readInline(node.children ?? [], cursor);
    const page = placeLines(cursor, inline.text.length) ? cursor.page : (inline.page ?? cursor.page);
    const outline = inline.outlineLevel;
    const level = outline === undefined ? styles.headingOf(node.styleId ?? null, node.styleName ?? null) : outline < 9 ? outline + 1 : undefined;
    if (level) builder.heading(inline.text, level, page);
    else if (node.numbering) builder.add('list_item', inline.text, page, Number(node.numbering.level) || 0);
    else builder.add(kindOfStyle(node.styleName ?? ''), inline.text, page);
    notes(inline.notes, page);
    if (inline.sectionBreakAfter) pageBreak(cursor);
  };

  const cell = (node: DocxNode): Cell => {
    const result: Cell = { text: '', page: undefined, bold: true, notes: [] };
    const texts: string[] = [];
    for (const child of node.children ?? []) {
      if (child.type === 'table') {
        const nested = tableRows(child);
        texts.push(nested.map((row) => row.text).join('; '));
        result.page ??= nested.find((row) => row.page)?.page;
        result.notes.push(...nested.flatMap((row) => row.notes));
        continue;
      }
      const inline = readInline(child.children ?? [], cursor);
      texts.push(inline.text);
      result.page ??= inline.page;
      result.bold &&= inline.allBold || !inline.text.trim();
      result.notes.push(...inline.notes);
    }
    result.text = texts.join(' ');
    return result;
  };

  /**
   * A table's rows with their pages. Each row of a table in the body (`placed`) takes its lines
   * as soon as its cells are read, so they count on the page Word's rendered breaks in those cells
   * put the row on, not all at once after the last row; a nested table's rows are part of their
   * cell's row.
   */
  const tableRows = (node: DocxNode, placed = false) => {
    const rows = (node.children ?? []).filter((row) => row.type === 'tableRow');
    const inputs: TableRowInput[] = [];
    const pages: (number | undefined)[] = [];
    const cells = rows.map((row) => {
      const rowCells = (row.children ?? []).filter((c) => c.type === 'tableCell').map((c) => ({ node: c, content: cell(c) }));
      inputs.push({
        isHeader: Boolean(row.isHeader),
        cells: rowCells.map(({ node: c, content }) => ({ text: content.text, colSpan: c.colSpan ?? 1, rowSpan: c.rowSpan ?? 1, bold: content.bold && Boolean(content.text.trim()) })),
      });
      const page = rowCells.find((c) => c.content.page)?.content.page;
      const chars = rowCells.reduce((sum, c) => sum + c.content.text.length + 3, 0);
      pages.push(placed && placeLines(cursor, chars) ? cursor.page : page);
      return rowCells.map((c) => c.content);
    });
    const texts = tableRowTexts(inputs);
    return cells.map((rowCells, r) => ({
      text: texts[r] ?? '',
      page: pages[r],
      notes: rowCells.flatMap((c) => c.notes),
    }));
  };

  const walk = (node: DocxNode) => {
    if (node.type === 'paragraph') return paragraph(node);
    if (node.type === 'table' && isLayoutTable(node)) {
      for (const row of node.children ?? []) for (const c of row.children ?? []) c.children?.forEach(walk);
      return;
    }
    if (node.type === 'table') {
      for (const row of tableRows(node, true)) {
        const page = row.page ?? cursor.page;
        builder.add('table_row', row.text, page);
        notes(row.notes, page);
      }
      return;
    }
    node.children?.forEach(walk);
  };

  document.children?.forEach(walk);
  for (const reference of endnotes) builder.add('footnote', noteText(document, reference), lastPage(cursor));
}

function noteText(document: DocxDocument, reference: NoteReference): string {
  const note = document.notes.resolve(reference);
  const texts: string[] = [];
  const visit = (node: DocxNode) => {
    if (node.type === 'text' && node.value && node.value.charCodeAt(0) !== 0xe000) texts.push(node.value);
    else if (node.type === 'tab' || node.type === 'break' || node.type === 'paragraph') texts.push(' ');
    node.children?.forEach(visit);
  };
  note?.body?.forEach(visit);
  return texts.join('');
}

/**
 * Tables used for layout, not data: a single column of cells (a box around text), or a cell
 * holding pages of prose (an article set in a table). Their content is read as ordinary text, so
 * headings, lists and pages inside them survive instead of collapsing into one huge row.
 */
function isLayoutTable(table: DocxNode): boolean {
  const rows = (table.children ?? []).filter((row) => row.type === 'tableRow');
  const cells = rows.map((row) => (row.children ?? []).filter((c) => c.type === 'tableCell'));
  if (rows.length > 0 && cells.every((row) => row.length <= 1)) return true;
  return cells.some((row) => row.some((c) => textLength(c) > LAYOUT_CELL_CHARS));
}

const LAYOUT_CELL_CHARS = 3000;

function textLength(node: DocxNode): number {
  return (node.type === 'text' ? (node.value?.length ?? 0) : 0) + (node.children ?? []).reduce((sum, child) => sum + textLength(child), 0);
}

function kindOfStyle(styleName: string): Exclude<BlockKind, 'heading'> {
  if (/caption/i.test(styleName)) return 'caption';
  if (/quote/i.test(styleName)) return 'quote';
  return 'paragraph';
}
