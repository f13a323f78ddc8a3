import { isMarker, MARKER } from './docx-pages.ts';
import type { DocxNode, NoteReference } from './docx-model.ts';
import { pageBreak, renderedBreak, type PageCursor } from './page-cursor.ts';

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
  else if (value === MARKER.rendered) renderedBreak(cursor);
  else if (value === MARKER.breakBefore && !cursor.afterBreak) pageBreak(cursor);
}
