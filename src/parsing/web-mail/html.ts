import { readFile } from 'node:fs/promises';
import { Parser as HtmlParser } from 'htmlparser2';
import { createBlockBuilder } from '../block-builder.ts';
import { decodeText } from '../language/decode.ts';
import { htmlBlockHandler } from './html-blocks.ts';
import { MEDIA_TYPES, type Parser } from '../types.ts';

/** HTML pages: one page, blocks from the element structure (see html-blocks.ts). */
export const parseHtml: Parser = async ({ path, limits, onProgress }) => {
  const bytes = await readFile(path);
  const { text } = decodeText(bytes, declaredCharset(bytes));
  const builder = createBlockBuilder();
  const parser = new HtmlParser(htmlBlockHandler(builder), { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.end(text);
  onProgress?.(1, 1);
  return builder.finish({ mediaType: MEDIA_TYPES.html, pageCount: 1, limits });
};

/** A <meta charset> or http-equiv Content-Type in the first kilobyte, as browsers look for it. */
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
}
