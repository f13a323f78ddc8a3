import type { Box } from './box.ts';

/** What every parser produces and the chunker slices: a paragraph, heading, row … with its place. */
export type BlockKind = 'heading' | 'paragraph' | 'list_item' | 'table_row' | 'code' | 'footnote' | 'quote' | 'caption';

export type Block = {
  /** 1-based. PDF/TIFF: the page; XLSX/CSV: the sheet's index among visible sheets; DOCX: the rendered page Word last saved, else 1; others: 1. */
  page: number;
  kind: BlockKind;
  /** Plain text, whitespace-normalised, never empty. Table rows keep their header names ("Region: West; Sales: 12"). */
  text: string;
  /** Titles of the headings this block sits under, outermost first (a heading's own path excludes itself). */
  headingPath: string[];
  /** Heading level (1 = top) for headings; nesting depth (0 = top) for list items. */
  level?: number;
  /** Its lines on the page (PDF text layers and OCR), `start` counted in `text`; absent where a format has no layout. */
  boxes?: Box[];
};
