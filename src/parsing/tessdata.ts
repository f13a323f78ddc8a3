import { mkdtempSync, rmSync, symlinkSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { OCR_LANGUAGES } from './ocr-languages.ts';

/**
 * tesseract.js reads every model of a worker from one folder (`langPath/<code>.traineddata.gz`),
 * but each model is its own npm package. So the models are linked into one temporary folder,
 * once per process; nothing is fetched. (Handing the bytes in as `{ code, data }` would avoid the
 * folder, but tesseract.js 7 then initialises with the bytes as the language name.)
 *
 * The LSTM models are the 4.0.0_best_int ones (int8): on the shared scans they read exactly as
 * well as 4.0.0 at the same speed, and they are 4-12 times smaller (chi_sim 1.7 MB, not 20 MB).
 * The orientation-and-script model exists only for the legacy engine (4.0.0).
 */
let folder: string | undefined;

export function tessdataDir(): string {
  if (folder) return folder;
  const require = createRequire(import.meta.url);
  const dir = mkdtempSync(join(tmpdir(), 'kbqa-tessdata-'));
  const models: [string, string][] = [...OCR_LANGUAGES.map((l): [string, string] => [l, '4.0.0_best_int']), ['osd', '4.0.0']];
  for (const [code, version] of models) {
    const source = join(dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)), version, `${code}.traineddata.gz`);
    const target = join(dir, `${code}.traineddata.gz`);
    try {
      symlinkSync(source, target);
    } catch {
      // Where links are not allowed (Windows without the right), a copy does.
      copyFileSync(source, target);
    }
  }
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  folder = dir;
  return dir;
}
