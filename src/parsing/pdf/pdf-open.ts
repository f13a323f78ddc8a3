import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument, VerbosityLevel, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { withTimeout } from '../timeout.ts';
import { ParseFailure } from '../types.ts';

/**
 * Opening a PDF with pdf.js, configured for a server: no eval, no font faces (we never draw text
 * for a browser), silent, and with its CMaps, standard fonts and wasm decoders read from the
 * installed package so nothing is fetched from the network.
 */

const assetDir = (() => {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return (name: string) => join(root, name) + '/';
})();

const OPTIONS = {
  verbosity: VerbosityLevel.ERRORS,
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  enableXfa: false,
  cMapUrl: assetDir('cmaps'),
  cMapPacked: true,
  standardFontDataUrl: assetDir('standard_fonts'),
  wasmUrl: assetDir('wasm'),
  iccUrl: assetDir('iccs'),
  // An image larger than this is skipped rather than decoded: 50 Mpx is a letter page at 800 dpi.
  maxImageSize: 50_000_000,
};

/** Opens the document; a password or bytes that are no PDF become the matching ParseFailure. */
export async function openPdf(bytes: Uint8Array, timeoutMs: number): Promise<PDFDocumentProxy> {
  const task = getDocument({ ...OPTIONS, data: bytes });
  try {
    return await withTimeout(task.promise, timeoutMs, () => new ParseFailure('timeout', `pdf.js did not open the file within ${timeoutMs} ms.`));
  } catch (error) {
    await task.destroy().catch(() => {});
    throw toParseFailure(error);
  }
}

/** pdf.js reports its failures by exception name; anything it cannot read counts as corrupt. */
export function toParseFailure(error: unknown): ParseFailure {
  if (error instanceof ParseFailure) return error;
  const name = (error as { name?: string })?.name;
  const message = (error as { message?: string })?.message ?? String(error);
  if (name === 'PasswordException') return new ParseFailure('encrypted', 'The PDF is password-protected.');
  return new ParseFailure('corrupt', `pdf.js could not read the file: ${message}`);
}

/** A complete PDF ends with %%EOF; a file that does not was probably cut off in transfer. */
export function looksTruncated(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(-1024).toString('latin1');
  return !tail.includes('%%EOF');
}
