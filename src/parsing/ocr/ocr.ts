import { straightened } from './deskew.ts';
import { darkOnLight, toPgm, type GrayImage } from './gray-image.ts';
import { readAuto } from './ocr-auto.ts';
import { eldTextDetector, type TextLanguageDetector } from './ocr-language-detect.ts';
import { languageSet, type OcrLanguage } from './ocr-languages.ts';
import { cutRow, halves, joinHalves } from './ocr-halves.ts';
import { cropGray, placeOnPage, type Region } from './ocr-region.ts';
import { stackRegions, wordsByStrip } from './ocr-strips.ts';
import { readTsv, type OcrPage } from './ocr-tsv.ts';
import type { OcrBackend, OcrEngineChoice } from './ocr-backend.ts';
import { createNativeBackend, findNativeTesseract } from './ocr-native.ts';
import { createWasmBackend } from './ocr-workers.ts';
import { parserProcessSettings } from '../parser-settings.ts';
import { withTimeout } from '../timeout.ts';

/**
 * OCR with tesseract, offline: the models come from @tesseract.js-data/<code> on disk, read by
 * tesseract.js or by the system's tesseract when one is installed (OcrEngineChoice). A page
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

/** `readers`: page readings that may run at once, 1 or 2 (parser processes pass KBQA_OCR_READERS, one a core by default). */
export type OcrEngineOptions = { timeoutMs?: number; readers?: number; detectLanguage?: TextLanguageDetector; engine?: OcrEngineChoice };

function chooseBackend(engine: OcrEngineChoice, readers: number): { kind: 'native' | 'wasm'; backend: OcrBackend } {
  const command = engine === 'wasm' ? null : findNativeTesseract();
  if (engine === 'native' && !command) throw new Error('OCR engine "native" was asked for, but no tesseract 4 or later runs as `tesseract`.');
  return command ? { kind: 'native', backend: createNativeBackend(command) } : { kind: 'wasm', backend: createWasmBackend({ lanes: readers }) };
}

/**
 * With two readers, a large page is read in halves at once (ocr-halves.ts) and a page's languages
 * two at a time (ocr-auto.ts): tesseract reads a page on one core. A native reading is a process
 * of tens of MB; a tesseract.js worker holds a heap of up to 300 MB, but one that reads halves
 * grows less: two workers took the OCR benchmark's process group from 572-579 to 624-635 MB.
 * The languages that read the last page are tried first, so a document in one language does not
 * switch its workers' models on every page.
 */
export function createOcrEngine({ timeoutMs = 60_000, readers = 1, detectLanguage = eldTextDetector(), engine = 'auto' }: OcrEngineOptions = {}): OcrEngine & { kind: 'native' | 'wasm' } {
  const { kind, backend } = chooseBackend(engine, readers);
  const parallel = readers > 1;
  let lastLanguages: OcrLanguage[] | undefined;

  // A reader that timed out or failed may be stuck mid-page, so it is stopped and the next page
  // starts it afresh; a reading abandoned on purpose (readAuto) was stopped by its signal alone.
  const run = async <T>(key: string, job: (signal: AbortSignal) => Promise<T>, abort = new AbortController()): Promise<T> => {
    try {
      return await withTimeout(job(abort.signal), timeoutMs, () => new OcrTimeout(`OCR of a page took longer than ${timeoutMs} ms`));
    } catch (error) {
      if (abort.signal.aborted) throw error;
      abort.abort();
      await backend.drop(key);
      throw error;
    }
  };

  const read = async (image: GrayImage, options: OcrOptions): Promise<OcrPage> => {
    // Straightened here (deskew.ts) for both engines, so the words' places are the image's and a
    // region of it can be read on its own.
    const fed = straightened(darkOnLight(image));
    const pgm = toPgm(fed);
    const cut = parallel ? cutRow(fed) : undefined;
    const halfPgms = cut === undefined ? undefined : halves(fed, cut).map(toPgm);
    const readPage = async (key: string, signal: AbortSignal): Promise<OcrPage> => {
      if (!halfPgms) return readTsv(await backend.readTsv(key, pgm, signal));
      const [top, bottom] = await Promise.all(halfPgms.map(async (half) => readTsv(await backend.readTsv(key, half, signal))));
      return joinHalves(top!, bottom!, cut!, fed.width, fed.height);
    };
    const readings = new Map<string, AbortController>();
    const recognize = async (languages: OcrLanguage[], region?: Region) => {
      const key = languageSet(languages).join('+');
      const abort = new AbortController();
      readings.set(key, abort);
      if (!region) return run(key, (signal) => readPage(key, signal), abort);
      const tsv = await run(key, (signal) => backend.readTsv(key, toPgm(cropGray(fed, region)), signal), abort);
      return placeOnPage(readTsv(tsv), region, fed.width, fed.height);
    };
    if (options.languages?.length) return recognize([...options.languages]);
    // A page OSD cannot make out (too few letters) keeps its English reading rather than failing.
    const detect = (image: Buffer) =>
      run('osd', (signal) => backend.detectScript(image, signal)).catch((error: unknown) => {
        if (error instanceof OcrTimeout) throw error;
        return null;
      });
    // Lines of a page read on their own, stacked into one image (ocr-mixed-scripts.ts).
    const detectScriptOf = (regions: Region[]) => detect(toPgm(stackRegions(fed, regions).image));
    const readParts = async (languages: OcrLanguage[], regions: Region[]) => {
      const stacked = stackRegions(fed, regions);
      const key = languageSet(languages).join('+');
      return wordsByStrip(readTsv(await run(key, (signal) => backend.readTsv(key, toPgm(stacked.image), signal, 'lines'))), stacked);
    };
    const abandon = (languages: OcrLanguage[]) => readings.get(languageSet(languages).join('+'))?.abort();
    const deps = { read: recognize, detectScript: () => detect(pgm), detectLanguage, concurrent: parallel, abandon, detectScriptOf, readParts };
    const reading = await readAuto(deps, lastLanguages);
    lastLanguages = reading.languages;
    return reading.page;
  };

  // One page at a time: the workers would queue them anyway, and a queued page must not use up
  // its time limit waiting for the pages before it.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    kind,
    recognize(image, options = {}) {
      const turn = queue.then(() => read(image, options));
      queue = turn.catch(() => {});
      return turn;
    },
    // Immediate, for shutdown: a page being read then fails by its time limit.
    close: () => backend.close(),
  };
}

/**
 * The engine of this process: parsers run in parser processes and each loads this module once,
 * so PDFs and images parsed by one process share its readers. It starts on the first page, after
 * the process's settings are in (parser-settings.ts). closeOcr() is for shutdown (idle workers do
 * not keep the process alive, but a clean exit frees them at once).
 */
let processEngine: OcrEngine | undefined;
export const threadOcr: OcrEngine = {
  recognize: (image, options) => {
    const { ocrEngine, ocrReaders } = parserProcessSettings();
    return (processEngine ??= createOcrEngine({ engine: ocrEngine, readers: ocrReaders })).recognize(image, options);
  },
  close: async () => processEngine?.close(),
};
export const closeOcr = (): Promise<void> => threadOcr.close();
/** Whether this process has started its OCR engine (tesseract.js's workers or the system's). */
export const ocrStarted = (): boolean => processEngine !== undefined;
