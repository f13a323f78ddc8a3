import { extname } from 'node:path';

/** The types of file the service reads, as a document's `media_type` names them. */
export const MEDIA_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  markdown: 'text/markdown',
  text: 'text/plain',
  html: 'text/html',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  epub: 'application/epub+zip',
  eml: 'message/rfc822',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
} as const;

export type MediaType = (typeof MEDIA_TYPES)[keyof typeof MEDIA_TYPES];

/** Which kind of text a file is, by its name alone, once its bytes have shown it is text. */
export function textTypeByName(fileName: string): MediaType {
  switch (extname(fileName).toLowerCase()) {
    case '.md':
    case '.markdown':
      return MEDIA_TYPES.markdown;
    case '.csv':
    case '.tsv':
      return MEDIA_TYPES.csv;
    case '.html':
    case '.htm':
    case '.xhtml':
      return MEDIA_TYPES.html;
    default:
      return MEDIA_TYPES.text;
  }
}
