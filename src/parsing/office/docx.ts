import mammoth from 'mammoth';
import { createBlockBuilder } from '../block-builder.ts';
import { docxBlocks } from './docx-blocks.ts';
import type { DocxDocument } from './docx-model.ts';
import { markPageHints } from './docx-pages.ts';
import { readStyles } from './docx-styles.ts';
import { failingAs } from '../failures.ts';
import { type Archive, openArchive } from './zip-archive.ts';
import { assertArchiveSafe, checkedPart } from './zip-safety.ts';
import { MEDIA_TYPES, ParseFailure, type Parser } from '../types.ts';

/**
 * Word documents: structure from mammoth, pages from the layout hints Word saved (see
 * docx-pages.ts). docProps/app.xml's <Pages> is not read: Word often leaves it stale (a 118-page
 * journal saying 1), while the rendered breaks are its actual layout.
 */
export const parseDocx: Parser = async ({ path, limits, onProgress }) => {
  const archive = await openArchive(path);
  try {
    assertArchiveSafe(archive.entries, limits);
    const part: PartReader = (name) => checkedPart(archive, name);
    const styles = await part('word/styles.xml');
    const body = { rendered: false };

    let document: DocxDocument | undefined;
    await failingAs('Word document', () =>
      // mammoth accepts an already opened package as `file` (lib/unzip.js), which lets every part
      // it reads pass through our size-checked, DTD-checked reader instead of its own unzip.
      mammoth.convertToHtml({ file: mammothPackage(archive, part, body) } as unknown as { buffer: Buffer }, {
        // We want mammoth's model, not its HTML: keep the model, hand back an empty document.
        transformDocument: (model: DocxDocument) => {
          document = model;
          return { ...model, children: [] };
        },
      }),
    );
    if (!document) throw new ParseFailure('corrupt', 'The Word document has no readable body.');

    const builder = createBlockBuilder();
    // Where Word's rendered breaks are missing (in the whole body, or in parts of it), a long
    // stretch between known page starts is laid out by estimate (see PageCursor); the result says so.
    const walked = docxBlocks(document, readStyles(styles && utf8(styles)), builder, { laidOut: body.rendered });
    const pageCount = walked.lastPage;
    const parsed = builder.finish({ mediaType: MEDIA_TYPES.docx, pageCount, limits });
    if (walked.estimated) parsed.pageEstimated = true;
    onProgress?.(pageCount, pageCount);
    return parsed;
  } finally {
    archive.close();
  }
};

type PartReader = (name: string) => Promise<Buffer | undefined>;


/**
 * The package interface mammoth's readers use: exists() and read(name, encoding). Notes in
 * `body` whether the document body holds Word's rendered page breaks.
 */
function mammothPackage(archive: Archive, part: PartReader, body: { rendered: boolean }) {
  return {
    exists: (name: string) => archive.has(name),
    async read(name: string, encoding?: string) {
      const bytes = await part(name);
      if (!bytes) throw new Error(`missing part ${name}`);
      if (encoding === 'base64') return bytes.toString('base64');
      if (!encoding) return new Uint8Array(bytes);
      const text = new TextDecoder(encoding).decode(bytes);
      if (!text.includes('<w:body')) return text;
      body.rendered ||= text.includes('<w:lastRenderedPageBreak');
      return markPageHints(text);
    },
  };
}

const utf8 = (bytes: Buffer) => new TextDecoder('utf-8').decode(bytes);
