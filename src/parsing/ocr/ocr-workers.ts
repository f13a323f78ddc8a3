import { createWorker, OEM, PSM, type InitOptions, type Worker } from 'tesseract.js';
import type { OcrBackend } from './ocr-backend.ts';
import { tessdataDir } from './tessdata.ts';

/**
 * Tesseract workers by language set, started on first use and kept for later pages: starting one
 * costs about half a second (wasm, models to inflate) and each holds its models in memory (CJK
 * tens of MB once inflated), so only the few most recently used sets stay alive.
 */

/** The tesseract.js Worker wraps a worker_threads Worker; we only use its ref/unref and events. */
type ThreadHandle = { ref?: () => void; unref?: () => void; on?: (event: string, listener: (e: unknown) => void) => void };
export const threadOf = (worker: Worker) => (worker as unknown as { worker?: ThreadHandle }).worker;

/**
 * Loading some models prints notes to stderr ("failed to load ./ita.special-words") before any
 * parameter can be set; tesseract takes any variable at initialisation, its typings list a few.
 */
const QUIET_INIT = { debug_file: '/dev/null' } as unknown as Partial<InitOptions>;

const setReadingParameters = (worker: Worker, osd: boolean) =>
  worker.setParameters({ debug_file: '/dev/null', tessedit_do_invert: '0', ...(osd ? {} : { tessedit_pageseg_mode: PSM.AUTO }) });

/**
 * A worker given other LSTM models: 0.12 s against 0.28 s for a new worker (wasm compiled,
 * thread started), which a page read once per language (ocr-auto.ts) pays per language. The
 * parameters are set again, as initialisation resets them.
 */
async function switchWorker(started: Promise<Worker>, key: string): Promise<Worker> {
  const worker = await started;
  await worker.reinitialize(key, OEM.LSTM_ONLY, QUIET_INIT);
  await setReadingParameters(worker, false);
  return worker;
}

/** `osd` is the orientation-and-script model, which only the legacy engine runs. */
async function startWorker(key: string, onError: () => void): Promise<Worker> {
  const osd = key === 'osd';
  const worker = await createWorker(key, osd ? OEM.TESSERACT_ONLY : OEM.LSTM_ONLY, {
    langPath: tessdataDir(),
    gzip: true,
    cacheMethod: 'none',
    legacyCore: osd,
    legacyLang: osd,
    logger: () => {},
    // Without a handler tesseract.js rethrows a failed job inside its message listener,
    // where nothing can catch it; the job's own promise still rejects.
    errorHandler: () => {},
  }, QUIET_INIT);
  // Tesseract's own diagnostics ("Image too small to scale!!") would go to stderr. Inverted
  // text is handled once per image (darkOnLight), not by a second pass over every line.
  // The library's default page segmentation is one block of text, which reads columns line by
  // line across the page; automatic segmentation finds the columns (and is what the CLI uses).
  await setReadingParameters(worker, osd);
  const thread = threadOf(worker);
  thread?.on?.('error', onError);
  // An idle worker must not keep the process alive; it is held only while a page is read.
  thread?.unref?.();
  return worker;
}

export type WorkerPool = {
  /** The worker for a language set ('eng', 'deu+eng', 'osd'), started if need be. */
  get(key: string): Promise<Worker>;
  /** Whether it holds (or is starting) a worker for the language set. */
  holds(key: string): boolean;
  /** Stops one worker (stuck or failed): the next get starts it afresh. */
  drop(key: string): Promise<void>;
  close(): Promise<void>;
};

export function createWorkerPool({ maxWorkers = 1 } = {}): WorkerPool {
  // Insertion order is use order: the first entry is the least recently used.
  const workers = new Map<string, Promise<Worker>>();
  const stop = (started: Promise<Worker> | undefined) => started?.then((w) => w.terminate()).catch(() => {});

  const drop = async (key: string) => {
    const started = workers.get(key);
    workers.delete(key);
    await stop(started);
  };

  const get = async (key: string) => {
    const kept = workers.get(key);
    if (kept) {
      workers.delete(key);
      workers.set(key, kept);
      return kept;
    }
    // Every worker counts, OSD's too: each holds a tesseract heap of about 300 MB once it has read
    // a page. The least recently used are stopped before the new one starts, or both heaps would
    // be alive at once, which is the peak the memory budget is about.
    const surplus = [...workers.keys()].slice(0, Math.max(0, workers.size + 1 - maxWorkers));
    // One reading LSTM models takes others; OSD runs on another engine and is never switched.
    const reused = key === 'osd' ? undefined : surplus.find((k) => k !== 'osd');
    await Promise.all(surplus.filter((k) => k !== reused).map(drop));
    const previous = reused === undefined ? undefined : workers.get(reused);
    if (reused !== undefined) workers.delete(reused);
    // A worker's thread failing drops whichever language set it holds by then.
    const onError = () => void drop([...workers].find(([, w]) => w === started)?.[0] ?? key);
    const started: Promise<Worker> = (previous ? switchWorker(previous, key) : startWorker(key, onError)).catch((error: unknown) => {
      workers.delete(key);
      void stop(previous);
      throw error;
    });
    workers.set(key, started);
    return started;
  };

  return {
    get,
    holds: (key) => workers.has(key),
    drop,
    close: async () => {
      const all = [...workers.values()];
      workers.clear();
      await Promise.all(all.map(stop));
    },
  };
}

/** A reader of the wasm backend: its own pool of one worker, and how many readings it has. */
export type Lane = { pool: Pick<WorkerPool, 'holds'>; busy: number };

/**
 * Where a reading goes: a free lane that already holds its models (no switch, 0.12 s), else any
 * free lane, else the least busy (tesseract.js queues jobs on a worker). OSD runs on the legacy
 * engine, which only the first lane starts, so that at most one such worker exists.
 */
export function pickLane<L extends Lane>(lanes: readonly L[], key: string): L {
  if (key === 'osd') return lanes[0]!;
  const free = lanes.filter((lane) => lane.busy === 0);
  return free.find((lane) => lane.pool.holds(key)) ?? free[0] ?? lanes.reduce((a, b) => (b.busy < a.busy ? b : a));
}

/**
 * tesseract.js as an OcrBackend with `lanes` workers that read at once, one a core: tesseract
 * reads a page on one thread, so a second worker reads the other half of a large page or another
 * language's sentences (ocr.ts). Each lane holds one worker at a time (its models switched, not a
 * worker started, when the languages change); a worker is held (ref) only while it reads, so an
 * idle one never keeps the process alive.
 */
export function createWasmBackend({ lanes = 1 } = {}): OcrBackend {
  const all = Array.from({ length: Math.max(1, lanes) }, () => ({ pool: createWorkerPool({ maxWorkers: 1 }), busy: 0 }));
  const held = async <T>(key: string, job: (worker: Worker) => Promise<T>): Promise<T> => {
    const lane = pickLane(all, key);
    lane.busy++;
    try {
      const worker = await lane.pool.get(key);
      const thread = threadOf(worker);
      thread?.ref?.();
      try {
        return await job(worker);
      } finally {
        thread?.unref?.();
      }
    } finally {
      lane.busy--;
    }
  };
  return {
    readTsv: (languages, pgm, _signal, layout = 'page') =>
      held(languages, async (w) => {
        // Set per reading and put back, so the worker is always left reading whole pages.
        if (layout === 'lines') await w.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
        try {
          return (await w.recognize(pgm, {}, { text: false, tsv: true })).data.tsv ?? '';
        } finally {
          if (layout === 'lines') await w.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
        }
      }),
    detectScript: (pgm) => held('osd', async (w) => (await w.detect(pgm)).data.script),
    drop: async (key) => void (await Promise.all(all.map((lane) => lane.pool.drop(key)))),
    close: async () => void (await Promise.all(all.map((lane) => lane.pool.close()))),
  };
}
