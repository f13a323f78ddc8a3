import { MEDIA_TYPES, type MediaType, type Parser } from './types.ts';

/**
 * Parsers load on first use: a worker that only ever sees text never pays for pdf.js, tesseract
 * or exceljs.
 */
const loaders: Record<MediaType, () => Promise<Parser>> = {
  [MEDIA_TYPES.pdf]: async () => (await import('./pdf/pdf.ts')).parsePdf,
  [MEDIA_TYPES.png]: async () => (await import('./ocr/image.ts')).parseImage,
  [MEDIA_TYPES.jpeg]: async () => (await import('./ocr/image.ts')).parseImage,
  [MEDIA_TYPES.tiff]: async () => (await import('./ocr/image.ts')).parseImage,
  [MEDIA_TYPES.docx]: async () => (await import('./office/docx.ts')).parseDocx,
  [MEDIA_TYPES.xlsx]: async () => (await import('./office/xlsx.ts')).parseXlsx,
  [MEDIA_TYPES.csv]: async () => (await import('./office/csv.ts')).parseCsv,
  [MEDIA_TYPES.markdown]: async () => (await import('./web-mail/markdown.ts')).parseMarkdown,
  [MEDIA_TYPES.text]: async () => (await import('./text.ts')).parseText,
  [MEDIA_TYPES.html]: async () => (await import('./web-mail/html.ts')).parseHtml,
  [MEDIA_TYPES.pptx]: async () => (await import('./office/pptx.ts')).parsePptx,
  [MEDIA_TYPES.epub]: async () => (await import('./web-mail/epub.ts')).parseEpub,
  [MEDIA_TYPES.doc]: async () => (await import('./office/doc.ts')).parseDoc,
  [MEDIA_TYPES.xls]: async () => (await import('./office/xls.ts')).parseXls,
  [MEDIA_TYPES.eml]: async () => (await import('./web-mail/eml.ts')).parseEml,
};

export function parserFor(mediaType: MediaType): Promise<Parser> {
  return loaders[mediaType]();
}
