import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, renameSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { OCR_LANGUAGES } from './ocr-languages.ts';

/**
 * tesseract.js reads every model of a worker from one folder (`langPath/<code>.traineddata.gz`),
 * but each model is its own npm package. So the models are linked into one folder under the OS
 * temp dir; nothing is fetched. (Handing the bytes in as `{ code, data }` would avoid the folder,
 * but tesseract.js 7 then initialises with the bytes as the language name.) The folder is named
 * after the packages' paths, so every thread and process of one installation shares it and a
 * parser thread that is stopped (which runs no exit handler) leaves nothing new behind.
 *
 * The LSTM models are the 4.0.0_best_int ones (int8): on the shared scans they read exactly as
 * well as 4.0.0 at the same speed, and they are 4-12 times smaller (chi_sim 1.7 MB, not 20 MB).
 * The orientation-and-script model exists only for the legacy engine (4.0.0).
 */
let folder: string | undefined;

/** Models npm has no @tesseract.js-data package for, shipped as a package in vendor/ (its README says where from). */
const VENDORED: Record<string, [pkg: string, dir: string]> = { rus: ['@kbqa/tessdata-rus', '4.1.0_fast'] };

export function tessdataDir(): string {
  if (folder) return folder;
  const require = createRequire(import.meta.url);
  const models: [string, string][] = [...OCR_LANGUAGES.map((l): [string, string] => [l, '4.0.0_best_int']), ['osd', '4.0.0']];
  const sources = models.map(([code, version]) => {
    const [pkg, dir] = VENDORED[code] ?? [`@tesseract.js-data/${code}`, version];
    return join(dirname(require.resolve(`${pkg}/package.json`)), dir, `${code}.traineddata.gz`);
  });
  const dir = join(tmpdir(), `kbqa-tessdata-${createHash('sha256').update(sources.join('\n')).digest('hex').slice(0, 16)}`);
  mkdirSync(dir, { recursive: true });
  models.forEach(([code], i) => link(sources[i]!, join(dir, `${code}.traineddata.gz`)));
  folder = dir;
  return dir;
}

/** Another thread may be linking the same file at the same moment: whoever is first wins, the result is the same. */
function link(source: string, target: string) {
  if (existsSync(target)) return;
  try {
    symlinkSync(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    // Where links are not allowed (Windows without the right), a copy does, put in place whole.
    const partial = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    copyFileSync(source, partial);
    renameSync(partial, target);
  }
}
