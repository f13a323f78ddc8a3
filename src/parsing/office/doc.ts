import { readFile, stat } from 'node:fs/promises';
import { createBlockBuilder } from '../block-builder.ts';
import { docTextBlocks } from './doc-text.ts';
import { failingAs } from '../failures.ts';
import { MEDIA_TYPES, ParseFailure, type Parser } from '../types.ts';
import { readWordBinary } from './word-binary.ts';

/**
 * Word 97-2003 documents (.doc) through word-extractor, which reads the text streams only: no
 * styles, so no headings (a .doc's sections read as paragraphs), and no layout, so pages are
 * estimated from the amount of text as for a DOCX Word never laid out (see PageCursor).
 */
export const parseDoc: Parser = async ({ path, limits, onProgress }) => {
  // A .doc is not compressed: its size bounds what the reader will hold, like an archive's declared sizes.
  const { size } = await stat(path);
  if (size > limits.maxUncompressedBytes) throw new ParseFailure('too_large', `The document is ${size} bytes; the limit is ${limits.maxUncompressedBytes}.`);
  const text = await failingAs('Word 97-2003 document', async () => readWordBinary(await readFile(path)));
  const builder = createBlockBuilder();
  const lastPage = docTextBlocks(text, builder);
  onProgress?.(lastPage, lastPage);
  // Even a one-page answer is a guess: the file keeps no layout at all.
  return { ...builder.finish({ mediaType: MEDIA_TYPES.doc, pageCount: lastPage, limits }), pageEstimated: true };
};
