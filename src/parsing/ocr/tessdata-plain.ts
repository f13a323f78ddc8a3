import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { tessdataDir } from './tessdata.ts';

/**
 * The same npm models as tesseract.js reads, inflated for the native tesseract, which cannot read
 * `.traineddata.gz`: reading a page with the very same model is what makes both engines give the
 * same text. A model is inflated on first use (eng: 3 MB to 5 MB in about 30 ms) into a folder
 * named after the gzipped folder, so every thread and process of one installation shares it.
 */
let folder: string | undefined;

export function plainTessdataDir(codes: readonly string[]): string {
  const gzipped = tessdataDir();
  folder ??= join(tmpdir(), `kbqa-tessdata-plain-${createHash('sha256').update(realpathSync(gzipped)).digest('hex').slice(0, 16)}`);
  mkdirSync(folder, { recursive: true });
  for (const code of codes) {
    const target = join(folder, `${code}.traineddata`);
    if (existsSync(target)) continue;
    // Written whole under another name, then renamed: a tesseract started meanwhile by another
    // thread never reads half a model.
    const partial = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(partial, gunzipSync(readFileSync(join(gzipped, `${code}.traineddata.gz`))));
    renameSync(partial, target);
  }
  return folder;
}
