import { readFile } from 'node:fs/promises';
import { createBlockBuilder } from './block-builder.ts';
import { decodeText } from './language/decode.ts';
import { MEDIA_TYPES, type Parser } from './types.ts';

/**
 * Plain text: paragraphs at blank lines; a form feed starts a new page, as printers (and
 * pdftotext output) use it.
 */
export const parseText: Parser = async ({ path, limits, onProgress }) => {
  const { text } = decodeText(await readFile(path));
  const pages = text.replace(/\r\n?/g, '\n').split('\f');
  while (pages.length > 1 && !pages[pages.length - 1]!.trim()) pages.pop();
  const builder = createBlockBuilder();
  pages.forEach((content, index) => {
    for (const paragraph of content.split(/\n[ \t\u00A0]*\n/)) builder.add('paragraph', paragraph, index + 1);
    onProgress?.(index + 1, pages.length);
  });
  return builder.finish({ mediaType: MEDIA_TYPES.text, pageCount: pages.length, limits });
};
