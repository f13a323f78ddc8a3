import { isMarker, MARKER } from './docx-pages.ts';
import type { DocxNode, NoteReference } from './docx-model.ts';

/**
 * Where we are in the document while walking it in reading order. Word writes a
 * lastRenderedPageBreak on the first run of every page it laid out, including pages that an
 * explicit break already started; `afterBreak` lets such a rendered break be absorbed instead
 * of counting that page twice.
 *
 * A document Word never laid out (written by a library, or saved without layout) has no rendered
 * breaks: then `estimate` is on, and text that cannot fit on one page between explicit breaks
 * fills further pages by a line count (`lines` on the current page). Such pages are guesses, and
 * `estimated` records that one was made.
 */
export type PageCursor = { page: number; afterBreak: boolean; sawText: boolean; estimate: boolean; lines: number; estimated: boolean };

export const createPageCursor = (estimate = false): PageCursor => ({ page: 1, afterBreak: false, sawText: false, estimate, lines: 0, estimated: false });

/**
 * A page of body text: US Letter or A4 with Word's default margins holds about 45 lines of
 * 85-90 characters at 11-12 pt; paragraph spacing takes a few, hence a little less.
 */
export const CHARS_PER_LINE = 90;
export const LINES_PER_PAGE = 40;

export type InlineContent = {
  text: string;
  /** The page the first visible character fell on. */
  page: number | undefined;
  outlineLevel: number | undefined;
  allBold: boolean;
  notes: NoteReference[];
  sectionBreakAfter: boolean;
};

/** Collects a paragraph's text, advancing the cursor over the page hints inside it. */
export function readInline(nodes: DocxNode[], cursor: PageCursor): InlineContent {
  const parts: string[] = [];
  const content: InlineContent = { text: '', page: undefined, outlineLevel: undefined, allBold: true, notes: [], sectionBreakAfter: false };
  const visit = (node: DocxNode, bold: boolean) => {
    switch (node.type) {
      case 'text': {
        const value = node.value ?? '';
        if (isMarker(value)) return marker(value, cursor, content);
        parts.push(value);
        if (/\S/.test(value)) {
          content.page ??= cursor.page;
          content.allBold &&= bold;
          cursor.afterBreak = false;
          cursor.sawText = true;
        }
        return;
      }
      case 'tab':
        return void parts.push(' ');
      case 'break':
        parts.push(' ');
        if (node.breakType === 'page') pageBreak(cursor);
        return;
      case 'noteReference':
        if (node.noteType && node.noteId) content.notes.push({ noteType: node.noteType, noteId: node.noteId });
        return;
      default:
        for (const child of node.children ?? []) visit(child, node.type === 'run' ? Boolean(node.isBold) : bold);
    }
  };
  for (const node of nodes) visit(node, false);
  content.text = parts.join('');
  return content;
}

function marker(value: string, cursor: PageCursor, content: InlineContent) {
  if (value === MARKER.sectionBreak) content.sectionBreakAfter = true;
  else if (value.startsWith(MARKER.outline)) content.outlineLevel = Number(value.slice(MARKER.outline.length));
  else if (!cursor.sawText) return; // nothing precedes it on the first page: no break
  else if (value === MARKER.rendered) {
    if (cursor.afterBreak) cursor.afterBreak = false; // the page an explicit break started
    else cursor.page++;
  } else if (value === MARKER.breakBefore && !cursor.afterBreak) pageBreak(cursor);
}

export function pageBreak(cursor: PageCursor) {
  cursor.page += 1 + overflowPages(cursor);
  cursor.lines = 0;
  cursor.afterBreak = true;
}

/**
 * When estimating, lays a block of `chars` characters on the current page, starting a new one if
 * it does not fit. Returns whether it started one (the block's page is then the cursor's).
 */
export function placeLines(cursor: PageCursor, chars: number): boolean {
  if (!cursor.estimate) return false;
  const lines = Math.max(1, Math.ceil(chars / CHARS_PER_LINE));
  let started = false;
  // A block longer than a page ran onto the pages after the one it started on.
  if (cursor.lines >= LINES_PER_PAGE) {
    started = true;
    cursor.page += Math.floor(cursor.lines / LINES_PER_PAGE);
    cursor.lines %= LINES_PER_PAGE;
  }
  if (cursor.lines > 0 && cursor.lines + lines > LINES_PER_PAGE) {
    started = true;
    cursor.page++;
    cursor.lines = 0;
  }
  cursor.estimated ||= started;
  cursor.lines += lines;
  return started;
}

/** The last page: where the cursor is, plus the pages a final long block ran onto. */
export const lastPage = (cursor: PageCursor) => cursor.page + overflowPages(cursor);

function overflowPages(cursor: PageCursor): number {
  const extra = cursor.estimate && cursor.lines > LINES_PER_PAGE ? Math.ceil(cursor.lines / LINES_PER_PAGE) - 1 : 0;
  cursor.estimated ||= extra > 0;
  return extra;
}
