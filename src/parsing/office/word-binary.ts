import { createRequire } from 'node:module';
import { assertCompoundChains } from './cfb-chains.ts';
import { ParseFailure } from '../types.ts';

/** The text parts of a Word 97-2003 file, as word-extractor separates them. */
export type WordBinaryText = { body: string; footnotes: string; endnotes: string; textboxes: string; headers: string; footers: string };

type WordDocumentApi = {
  getBody(o?: object): string;
  getFootnotes(o?: object): string;
  getEndnotes(o?: object): string;
  getTextboxes(o?: { includeHeadersAndFooters?: boolean; includeBody?: boolean }): string;
  getHeaders(o?: { includeFooters?: boolean }): string;
  getFooters(o?: object): string;
};
type Extractor = {
  extract(reader: unknown): Promise<WordDocumentApi>;
  extractWordDocument(document: unknown, fib: Buffer): Promise<unknown>;
};

// word-extractor ships no types and no ESM entry; its OLE extractor is used directly so the FIB
// can be checked before the text is decoded (see below).
const require = createRequire(import.meta.url);
const WordOleExtractor = require('word-extractor/lib/word-ole-extractor.js') as new () => Extractor;
const BufferReader = require('word-extractor/lib/buffer-reader.js') as new (buffer: Buffer) => unknown;

/** FIB flag fEncrypted (MS-DOC 2.5.2): the text streams are RC4/XOR ciphertext, and would decode to noise. */
const F_ENCRYPTED = 0x0100;
/** Unicode-friendly quotes and dashes are what Word showed; word-extractor's ASCII folding is off. */
const RAW = { filterUnicode: false };

export async function readWordBinary(bytes: Buffer): Promise<WordBinaryText> {
  assertCompoundChains(bytes);
  const extractor = new WordOleExtractor();
  const decode = extractor.extractWordDocument.bind(extractor);
  extractor.extractWordDocument = (document, fib) => {
    if (fib.length >= 12 && fib.readUInt16LE(0x0a) & F_ENCRYPTED) throw new ParseFailure('encrypted', 'The document is password-protected.');
    return decode(document, fib);
  };
  const document = await extractor.extract(new BufferReader(bytes));
  return {
    body: document.getBody(RAW),
    footnotes: document.getFootnotes(RAW),
    endnotes: document.getEndnotes(RAW),
    textboxes: document.getTextboxes({ ...RAW, includeHeadersAndFooters: false, includeBody: true }),
    headers: document.getHeaders({ ...RAW, includeFooters: false }),
    footers: document.getFooters(RAW),
  };
}
