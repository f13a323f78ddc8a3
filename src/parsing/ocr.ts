import { createRequire } from 'node:module';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { darkOnLight, toPgm, type GrayImage } from './gray-image.ts';
import { readTsv, type OcrPage } from './ocr-tsv.ts';
import { withTimeout } from './timeout.ts';

/**
 * OCR with tesseract.js, offline: the English model comes from @tesseract.js-data/eng on disk.
 * Starting a tesseract worker costs about a second (wasm, a 10 MB model to inflate), so an
 * engine starts its worker on first use and keeps it for every later page and document.
 */

export type OcrEngine = {
  recognize(image: GrayImage): Promise<OcrPage>;
  /** Stops the worker; the next recognize starts a new one. */
  close(): Promise<void>;
};

export class OcrTimeout extends Error {
  override readonly name = 'OcrTimeout';
}

/** The tesseract.js Worker wraps a worker_threads Worker; we only use its ref/unref and events. */
type ThreadHandle = { ref?: () => void; unref?: () => void; on?: (event: string, listener: (e: unknown) => void) => void };

export function createOcrEngine({ timeoutMs = 60_000 } = {}): OcrEngine {
  let started: Promise<Worker> | undefined;

  const start = async () => {
    const { langPath } = createRequire(import.meta.url)('@tesseract.js-data/eng') as { langPath: string };
    const worker = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath,
      gzip: true,
      cacheMethod: 'none',
      logger: () => {},
      // Without a handler tesseract.js rethrows a failed job inside its message listener,
      // where nothing can catch it; the job's own promise still rejects.
      errorHandler: () => {},
    });
    // Tesseract's own diagnostics ("Image too small to scale!!") would go to stderr. Inverted
    // text is handled once per image (darkOnLight), not by a second pass over every line.
    // The library's default page segmentation is one block of text, which reads columns line by
    // line across the page; automatic segmentation finds the columns (and is what the CLI uses).
    await worker.setParameters({ debug_file: '/dev/null', tessedit_do_invert: '0', tessedit_pageseg_mode: PSM.AUTO });
    const thread = (worker as unknown as { worker?: ThreadHandle }).worker;
    thread?.on?.('error', () => void reset());
    // An idle worker must not keep the process alive; it is held only while a page is read.
    thread?.unref?.();
    return worker;
  };

  const reset = async () => {
    const current = started;
    started = undefined;
    await current?.then((w) => w.terminate()).catch(() => {});
  };

  const read = async (image: GrayImage): Promise<OcrPage> => {
    started ??= start().catch((error) => {
      started = undefined;
      throw error;
    });
    const worker = await started;
    const thread = (worker as unknown as { worker?: ThreadHandle }).worker;
    thread?.ref?.();
    try {
      const job = worker.recognize(toPgm(darkOnLight(image)), { rotateAuto: true }, { text: false, tsv: true });
      const result = await withTimeout(job, timeoutMs, () => new OcrTimeout(`OCR of a page took longer than ${timeoutMs} ms`));
      return readTsv(result.data.tsv ?? '');
    } catch (error) {
      // A worker that timed out or failed may be stuck mid-job: start afresh next time.
      await reset();
      throw error;
    } finally {
      thread?.unref?.();
    }
  };

  // One page at a time: the worker would queue them anyway, and a queued page must not use up
  // its time limit waiting for the pages before it.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    recognize(image) {
      const turn = queue.then(() => read(image));
      queue = turn.catch(() => {});
      return turn;
    },
    // Immediate, for shutdown: a page being read then fails by its time limit.
    close: reset,
  };
}

/**
 * The engine of this thread: parsers run in worker threads and each thread loads this module
 * once, so PDFs and images parsed by one thread share one tesseract worker. closeOcr() is for
 * shutdown (an idle worker does not keep the process alive, but a clean exit frees it at once).
 */
export const threadOcr: OcrEngine = createOcrEngine();
export const closeOcr = (): Promise<void> => threadOcr.close();
