import { MEDIA_TYPES, type MediaType, type Parser } from './types.ts';

/**
 * Parsers load on first use: a worker that only ever sees text never pays for pdf.js, tesseract
 * or exceljs.
 */
const loaders: Record<MediaType, () => Promise<Parser>> = {
  [MEDIA_TYPES.pdf]: async () => (await import('./pdf.ts')).parsePdf,
  [MEDIA_TYPES.png]: async () => (await import('./image.ts')).parseImage,
  [MEDIA_TYPES.jpeg]: async () => (await import('./image.ts')).parseImage,
  [MEDIA_TYPES.tiff]: async () => (await import('./image.ts')).parseImage,
  [MEDIA_TYPES.docx]: async () => (await import('./docx.ts')).parseDocx,
  [MEDIA_TYPES.xlsx]: async () => (await import('./xlsx.ts')).parseXlsx,
  [MEDIA_TYPES.csv]: async () => (await import('./csv.ts')).parseCsv,
  [MEDIA_TYPES.markdown]: async () => (await import('./markdown.ts')).parseMarkdown,
  [MEDIA_TYPES.text]: async () => (await import('./text.ts')).parseText,
  [MEDIA_TYPES.html]: async () => (await import('./html.ts')).parseHtml,
  [MEDIA_TYPES.pptx]: async () => (await import('./pptx.ts')).parsePptx,
  [MEDIA_TYPES.epub]: async () => (await import('./epub.ts')).parseEpub,
  [MEDIA_TYPES.doc]: async () => (await import('./doc.ts')).parseDoc,
  [MEDIA_TYPES.xls]: async () => (await import('./xls.ts')).parseXls,
  [MEDIA_TYPES.eml]: async () => (await import('./eml.ts')).parseEml,
};

export function parserFor(mediaType: MediaType): Promise<Parser> {
  return loaders[mediaType]();
}
