import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { textTypeByName } from '../domain/document/media-type.ts';
import type { Detection } from '../ports/media-type-detector.ts';
import { CFB_SIGNATURE, cfbEntryNames, type ReadAt } from './office/cfb.ts';
import { bomEncoding } from './language/decode.ts';
import { openArchive } from './office/zip-archive.ts';
import { type FailureCode, MEDIA_TYPES, type MediaType, ParseFailure } from './types.ts';

/** Enough to see every signature and to judge whether a file is text. */
const HEAD_BYTES = 8192;
/** Some producers put junk before %PDF; readers accept it within the first kilobyte. */
const PDF_SEARCH_BYTES = 1024;

/** Local file header, empty archive, spanned archive: "PK" alone also starts words like "PKD1". */
const ZIP_SIGNATURES = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x05, 0x06],
  [0x50, 0x4b, 0x07, 0x08],
];

const ok = (mediaType: MediaType): Detection => ({ ok: true, mediaType });
const fail = (code: FailureCode, message: string): Detection => ({ ok: false, code, message });

/**
 * Decides a file's type from its bytes, never its name (names lie: a text file called .docx is
 * text). Reads the head and, for ZIPs, the central directory only, so the upload endpoint can
 * afford to call it before accepting a file.
 */
export async function detectMediaType(path: string, fileName: string): Promise<Detection> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return fail('empty', 'The file is empty.');
    const readAt: ReadAt = async (offset, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    };
    const head = await readAt(0, HEAD_BYTES);
    const binary = binaryKind(head);
    if (binary) return ok(binary);
    if (ZIP_SIGNATURES.some((signature) => startsWith(head, signature))) return await zipKind(path, fileName);
    if (head.subarray(0, 8).equals(CFB_SIGNATURE)) return await compoundFileKind(readAt);
    const text = textKind(head, fileName, size > head.length);
    return text ? ok(text) : fail('unsupported_type', 'The file is neither a supported document nor text.');
  } finally {
    await handle.close();
  }
}

function binaryKind(head: Buffer): MediaType | undefined {
  if (head.subarray(0, PDF_SEARCH_BYTES).includes('%PDF-')) return MEDIA_TYPES.pdf;
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return MEDIA_TYPES.png;
  if (startsWith(head, [0xff, 0xd8, 0xff])) return MEDIA_TYPES.jpeg;
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return MEDIA_TYPES.tiff;
  return undefined;
}

/** OOXML packages are told apart by their main part's conventional name. */
async function zipKind(path: string, fileName: string): Promise<Detection> {
  let names: Set<string>;
  try {
    const archive = await openArchive(path);
    names = new Set(archive.entries.map((e) => e.name));
    archive.close();
  } catch (error) {
    if (!(error instanceof ParseFailure) || error.code !== 'corrupt') throw error;
    // The directory is unreadable, so the name is all there is; the parser will report the damage.
    const claimed = officeTypeByName(fileName);
    return claimed ? ok(claimed) : fail('corrupt', 'The file is a damaged ZIP archive.');
  }
  if (names.has('word/document.xml')) return ok(MEDIA_TYPES.docx);
  if (names.has('xl/workbook.xml')) return ok(MEDIA_TYPES.xlsx);
  if (names.has('ppt/presentation.xml')) return ok(MEDIA_TYPES.pptx);
  // EPUB requires a `mimetype` entry first and META-INF/container.xml; either one is telling enough.
  if (names.has('META-INF/container.xml') || (names.has('mimetype') && /\.epub$/i.test(fileName))) return ok(MEDIA_TYPES.epub);
  return fail('unsupported_type', 'The file is a ZIP archive, but not a Word (.docx), Excel (.xlsx), PowerPoint (.pptx) or EPUB document.');
}

/**
 * OLE2 files are told apart by their main stream: Word 97-2003 and Excel 97-2003 (BIFF8, and
 * BIFF5's "Book") are read; PowerPoint 97-2003 is not (no well-kept library reads it). Office wraps
 * a password-protected .docx/.xlsx in one with an EncryptedPackage stream.
 */
async function compoundFileKind(readAt: ReadAt): Promise<Detection> {
  let names: string[];
  try {
    names = await cfbEntryNames(readAt);
  } catch {
    return fail('corrupt', 'The file is a damaged OLE2 (legacy Office) file.');
  }
  if (names.includes('EncryptedPackage')) return fail('encrypted', 'The document is password-protected.');
  if (names.includes('WordDocument')) return ok(MEDIA_TYPES.doc);
  if (names.includes('Workbook') || names.includes('Book')) return ok(MEDIA_TYPES.xls);
  if (names.includes('PowerPoint Document')) {
    return fail('unsupported_type', 'Legacy PowerPoint files (.ppt) are not supported; save the presentation as .pptx and upload that.');
  }
  return fail('unsupported_type', 'The file is an OLE2 compound file, but not a Word (.doc) or Excel (.xls) 97-2003 document.');
}

function textKind(head: Buffer, fileName: string, truncated: boolean): MediaType | undefined {
  const bom = bomEncoding(head);
  let sample: string;
  if (bom) {
    const body = head.subarray(bom.length, truncated ? head.length - (head.length % 2) : head.length);
    sample = new TextDecoder(bom.encoding).decode(body);
  } else {
    if (!looksLikeLegacyText(head)) return undefined;
    sample = head.toString('latin1');
  }
  if (/^(?:\s|<!--[\s\S]*?-->|<\?xml[^>]*>)*<(?:!doctype\s+html|html[\s>])/i.test(sample.slice(0, 1024))) return MEDIA_TYPES.html;
  const byName = textTypeByName(fileName);
  return byName === MEDIA_TYPES.text && looksLikeEmail(sample, fileName) ? MEDIA_TYPES.eml : byName;
}

/**
 * UTF-8 and the 8-bit code pages never contain NUL in text, and only tabs, line breaks and form
 * feeds among the other C0 controls; binary formats are full of both.
 */
function looksLikeLegacyText(head: Buffer): boolean {
  let controls = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) || byte === 0x7f) controls++;
  }
  return controls <= Math.max(2, head.length / 100);
}

/** Headers that mail always has and other text rarely starts with. */
const MAIL_HEADERS = ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'received', 'return-path', 'delivered-to'];

/**
 * An RFC 5322 message starts with header lines up to the first blank line. A .eml name needs one
 * mail header; any other text needs two, one of them From, MIME-Version or Received, so notes
 * that start "Date: …" stay text.
 */
function looksLikeEmail(sample: string, fileName: string): boolean {
  const blank = /\r?\n\r?\n/.exec(sample);
  const lines = (blank ? sample.slice(0, blank.index) : sample).split(/\r?\n/).filter((line) => !/^[ \t]/.test(line));
  // Without a blank line in the sample, the last line may be cut anywhere.
  const whole = blank ? lines : lines.slice(0, -1);
  if (whole.length === 0 || !whole.every((line) => /^[\x21-\x39\x3b-\x7e]+:/.test(line))) return false;
  const names = new Set(whole.map((line) => line.slice(0, line.indexOf(':')).toLowerCase()));
  const known = MAIL_HEADERS.filter((name) => names.has(name)).length;
  if (extname(fileName).toLowerCase() === '.eml') return known >= 1;
  return known >= 2 && (names.has('from') || names.has('mime-version') || names.has('received'));
}

function officeTypeByName(fileName: string): MediaType | undefined {
  const ext = extname(fileName).toLowerCase();
  const byExtension: Record<string, MediaType> = { '.docx': MEDIA_TYPES.docx, '.xlsx': MEDIA_TYPES.xlsx, '.pptx': MEDIA_TYPES.pptx, '.epub': MEDIA_TYPES.epub };
  return byExtension[ext];
}

const startsWith = (bytes: Buffer, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
