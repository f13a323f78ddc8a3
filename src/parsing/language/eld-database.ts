import { execFile } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readPackedNgrams, WRITE_NGRAM_LINES } from './eld-ngrams.ts';

/** A language guess: an ISO 639-1 code, and whether the detector trusts it. */
export type LanguageGuess = { language: string; reliable: boolean };
export type LanguageDetector = (text: string) => LanguageGuess;

/** Detection reads no further: a paragraph's worth decides as well as a page, at a fraction of the time. */
export const SAMPLE_CHARS = 512;

/**
 * ELD (Nito-ELD, Apache-2.0), medium database: on XQuAD questions (1,190 per language, 5–20
 * words) it named en 99.9 %, de 99.3 %, es 99.7 %, ru 99.4 %, ar 100 %, zh 98.5 % correctly at
 * about 85 µs a question; on their first three words still 90–99 %. tinyld managed 97–99 %
 * at twice the time, franc-min 78–98 % (and 55–68 % on three words). Its data is loaded on
 * demand, once, the lean way (loadEldInstance below). The analyzer and OCR both detect through it.
 *
 * The database is read at the first detection (about 0.1 s), not when the detector is loaded:
 * a server that never detects (every knowledge base's language pinned) never holds it. It is
 * held packed (eld-ngrams.ts), about 4 MB outside the heap: as eld's objects it took 32 MB of
 * heap, and on their way there they grew V8's young generation (to its 64 MB semi-spaces at
 * start-up three starts in four; by 64 MB of resident memory at a server's first search).
 */
export async function loadEldDetector(): Promise<LanguageDetector> {
  const eld = await loadEldInstance();
  return (text) => {
    const result = eld().detect(text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text);
    return { language: result.language || 'und', reliable: result.language !== '' && result.isReliable() };
  };
}

/** eld's detector, as its entry files build it: an instance, and the hook that gives it a database. */
type EldInstance = { detect(text: string): { language: string; isReliable(): boolean } };
type CreateEld = () => { instance: EldInstance; loadData(data: unknown): boolean | void };

const DATABASE = 'medium';

/**
 * ELD's 'medium' database loaded lean. eld ships it as a 2 MB JavaScript object literal:
 * importing it costs about 190 MB of resident memory for good (the parser's memory is not given
 * back), against 55 MB when the same data arrives as JSON, and 4 MB packed. So the JavaScript is
 * read once in a short-lived child process that prints it as JSON lines, one n-gram each, kept
 * beside node_modules' other caches; the detector itself is eld's own, built as eld's entry files
 * build it, over the packed n-grams.
 * It lives with the parsers because OCR detects languages too, and parsing may not import adapters.
 * What it returns gives the detector, built at its first call (see loadEldDetector for why not before).
 */
async function loadEldInstance(): Promise<() => EldInstance> {
  const entry = fileURLToPath(import.meta.resolve('eld'));
  const eldSrc = join(dirname(entry), '..');
  let lines: string | undefined = await databaseLines(eldSrc);
  // eld's exports map does not name languageDetector.js; a file URL is not held to it. The
  // version is pinned in package.json, and the analyzer's contract suite checks detection.
  const { createEld } = (await import(new URL('languageDetector.js', `file://${eldSrc}/`).href)) as { createEld: CreateEld };
  let built: EldInstance | undefined;
  return () => {
    if (!built) {
      const { instance, loadData } = createEld();
      const { header, ngrams } = readPackedNgrams(lines!);
      loadData({ ...header, ngrams: ngrams.asEldNgrams() });
      // The 2.6 MB of text is not needed once packed.
      lines = undefined;
      built = instance;
    }
    return built;
  };
}

async function databaseLines(eldSrc: string): Promise<string> {
  const version = JSON.parse(await readFile(join(eldSrc, '..', 'package.json'), 'utf8')).version as string;
  const cached = join(cacheDir(eldSrc), `eld-${version}-${DATABASE}.jsonl`);
  const hit = await readFile(cached, 'utf8').catch(() => null);
  if (hit) return hit;
  const json = await convertInChild(join(eldSrc, 'ngrams', `${DATABASE}.js`));
  // Written whole then renamed, so a reader never sees half a file; a read-only install just
  // converts again on the next start.
  await mkdir(dirname(cached), { recursive: true })
    .then(() => writeFile(`${cached}.${process.pid}`, json))
    .then(() => rename(`${cached}.${process.pid}`, cached))
    .catch(() => {});
  return json;
}

/** node_modules/.cache/kbqa, the place tools keep what they derive from installed packages. */
function cacheDir(eldSrc: string): string {
  return join(eldSrc, '..', '..', '.cache', 'kbqa');
}

async function convertInChild(modulePath: string): Promise<string> {
  const script = `const m = await import(${JSON.stringify(`file://${modulePath}`)});\n${WRITE_NGRAM_LINES}`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}
