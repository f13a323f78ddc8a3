/**
 * The parts of mammoth's internal document model (lib/documents.js) that we read. mammoth
 * publishes no types for it; these mirror what its body reader builds.
 */
export type DocxNode = {
  type: string;
  children?: DocxNode[];
  value?: string;
  breakType?: 'line' | 'page' | 'column';
  styleId?: string | null;
  styleName?: string | null;
  numbering?: { level: string; isOrdered: boolean } | null;
  isBold?: boolean;
  isHeader?: boolean;
  colSpan?: number;
  rowSpan?: number;
  noteType?: 'footnote' | 'endnote';
  noteId?: string;
  checked?: boolean;
  body?: DocxNode[];
};

export type DocxDocument = DocxNode & {
  notes: { resolve(reference: { noteType: string; noteId: string }): DocxNode | null; _notes?: Record<string, DocxNode> };
};

export type NoteReference = { noteType: 'footnote' | 'endnote'; noteId: string };
