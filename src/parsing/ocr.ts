import type { Worker } from 'tesseract.js';
import { darkOnLight, toPgm, type GrayImage } from './gray-image.ts';
import { readAuto } from './ocr-auto.ts';
import { eldTextDetector, type TextLanguageDetector } from './ocr-language-detect.ts';
import { languageSet, type OcrLanguage } from './ocr-languages.ts';
import { readTsv, type OcrPage } from './ocr-tsv.ts';
import { createWorkerPool, threadOf } from './ocr-workers.ts';
import { withTimeout } from './timeout.ts';

/**
 * OCR with tesseract.js, offline: the models come from @tesseract.js-data/<code> on disk. A page
 * is read in the languages asked for (a knowledge base's or an upload's `ocr.languages`) or, with
 * none asked for, in the languages found on the page (ocr-auto.ts).
 */

export type OcrOptions = { languages?: readonly OcrLanguage[] };
export type OcrEngine = {
  recognize(image: GrayImage, options?: OcrOptions): Promise<OcrPage>;
  /** Stops the workers; the next recognize starts new ones. */
  close(): Promise<void>;
};

export class OcrTimeout extends Error {
  override readonly name = 'OcrTimeout';
}

export type OcrEngineOptions = { timeoutMs?: number; maxWorkers?: number; detectLanguage?: TextLanguageDetector };

/**
 * One tesseract worker at a time by default: a worker's heap is about 300 MB once it has read a
 * page, and two (English and OSD, or two language sets) took the OCR benchmark's process group
 * from 712 MB to 1.17 GB, past the 1 GB budget. The languages that read the last page are tried
 * first, so a document in one language does not start its workers afresh on every page.
 */
export function createOcrEngine({ timeoutMs = 60_000, maxWorkers = 1, detectLanguage = eldTextDetector() }: OcrEngineOptions = {}): OcrEngine {
  const pool = createWorkerPool({ maxWorkers });
  let lastLanguages: OcrLanguage[] | undefined;

  // One job on one worker, the worker held (ref) only meanwhile; a worker that timed out or
  // failed may be stuck mid-job, so it is dropped and the next page starts it afresh.
  const run = async <T>(key: string, job: (worker: Worker) => Promise<T>): Promise<T> => {
    const worker = await pool.get(key);
    const thread = threadOf(worker);
    thread?.ref?.();
    try {
      return await withTimeout(job(worker), timeoutMs, () => new OcrTimeout(`OCR of a page took longer than ${timeoutMs} ms`));
    } catch (error) {
      await pool.drop(key);
      throw error;
    } finally {
      thread?.unref?.();
    }
  };

  const read = async (image: GrayImage, options: OcrOptions): Promise<OcrPage> => {
    const pgm = toPgm(darkOnLight(image));
    const recognize = async (languages: OcrLanguage[]) =>
      readTsv((await run(languageSet(languages).join('+'), (w) => w.recognize(pgm, { rotateAuto: true }, { text: false, tsv: true }))).data.tsv ?? '');
    if (options.languages?.length) return recognize([...options.languages]);
    // A page OSD cannot make out (too few letters) keeps its English reading rather than failing.
    const detectScript = () =>
      run('osd', (w) => w.detect(pgm)).then(
        (result) => result.data.script,
        (error: unknown) => {
          if (error instanceof OcrTimeout) throw error;
          return null;
        },
      );
    const reading = await readAuto({ read: recognize, detectScript, detectLanguage }, lastLanguages);
    lastLanguages = reading.languages;
    return reading.page;
  };

  // One page at a time: the workers would queue them anyway, and a queued page must not use up
  // its time limit waiting for the pages before it.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    recognize(image, options = {}) {
      const turn = queue.then(() => read(image, options));
      queue = turn.catch(() => {});
      return turn;
    },
    // Immediate, for shutdown: a page being read then fails by its time limit.
    close: () => pool.close(),
  };
}

/**
 * The engine of this thread: parsers run in worker threads and each thread loads this module
 * once, so PDFs and images parsed by one thread share its tesseract workers. closeOcr() is for
 * shutdown (idle workers do not keep the process alive, but a clean exit frees them at once).
 */
export const threadOcr: OcrEngine = createOcrEngine();
export const closeOcr = (): Promise<void> => threadOcr.close();
