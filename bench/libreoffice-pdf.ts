import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import os from 'node:os';
import { basename, join } from 'node:path';

/**
 * LibreOffice headless as a reference renderer for the benchmarks only (never a dependency of the
 * service): Debian's libreoffice-writer-nogui. Its layout is not Word's (other fonts, other line
 * breaking), so its pages are a second opinion, not the truth.
 */
export function libreOfficeVersion(): string | undefined {
  const run = spawnSync('soffice', ['--version'], { encoding: 'utf8', timeout: 60_000 });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/**
 * The PDF LibreOffice makes of a document, cached by the document's bytes under the OS temp dir,
 * so that runs before and after a change compare with the same rendering. Its own profile
 * directory keeps it apart from any other LibreOffice running on the machine.
 */
export function convertToPdf(path: string): string {
  const bytes = readFileSync(path);
  const cache = join(os.tmpdir(), 'kbqa-bench-libreoffice');
  const pdf = join(cache, `${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}.pdf`);
  if (existsSync(pdf)) return pdf;
  const out = join(cache, 'out');
  mkdirSync(out, { recursive: true });
  const profile = `file://${join(cache, 'profile')}`;
  const run = spawnSync('soffice', [`-env:UserInstallation=${profile}`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', out, path], { encoding: 'utf8', timeout: 300_000 });
  const made = join(out, basename(path).replace(/\.[^.]+$/, '.pdf'));
  if (run.status !== 0 || !existsSync(made)) throw new Error(`soffice could not convert ${path}: ${run.stderr || run.stdout}`);
  renameSync(made, pdf);
  return pdf;
}

/** Each page's text, in the order pdf.js reads it. */
export async function pdfPageTexts(path: string): Promise<string[]> {
  // Imported here, not at the top: pdf.js's legacy build replaces the process's JSON.stringify with
  // core-js's, ≈ 13× slower, and bench/run.ts imports every bench, so a top-level import slowed
  // every other bench's JSON (the relay's encoding went from ≈ 2 to ≈ 20 µs an event).
  const { getDocument, VerbosityLevel } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await getDocument({ data: new Uint8Array(readFileSync(path)), verbosity: VerbosityLevel.ERRORS, isEvalSupported: false, disableFontFace: true }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const content = await (await document.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    return pages;
  } finally {
    await document.destroy();
  }
}
