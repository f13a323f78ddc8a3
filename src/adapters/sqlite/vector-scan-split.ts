import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import type { Kernels } from './vector-kernels.ts';

/** A mirror as the helper thread needs it: its memory (shared), its kernels' module, and the bytes each block of 16 slots takes in each region. */
export type SplitTarget = {
  memory: WebAssembly.Memory;
  module: WebAssembly.Module;
  kernels: Kernels;
  strides: { blocks: number; meta: number; out: number };
};

/** The scan's arguments (byte offsets into the target's memory, as Kernels.scan takes them). */
export type ScanArea = { blocks: number; tables: number; meta: number; out: number; k1: number; k2: number; k3: number };

export type ScanSplitter = {
  /**
   * Scans `blockCount` blocks with the helper thread doing half of them, and returns true; or
   * returns false, having done nothing, when the caller should scan alone: a small scan, a busy
   * process, a helper not started yet.
   */
  scan(target: SplitTarget, area: ScanArea, blockCount: number): boolean;
  close(): Promise<void>;
};

/** Below this many blocks (32k vectors, ~0.2 ms of scan) waking the helper costs more than half the scan saves. */
const MIN_BLOCKS = 2048;
/** The helper ends after this long without a scan. */
const IDLE_MS = 30_000;
/** A helper that has not finished its half by then is taken for stuck: the caller scans that half too. */
const DONE_WITHIN_MS = 1000;
/**
 * When the caller waited for the helper longer than this share of its own half (and more than
 * WAIT_FLOOR_MS), the other core was busy with other work: scans stay whole for BACK_OFF_MS.
 */
const WAIT_SHARE = 0.5;
const WAIT_FLOOR_MS = 0.1;
const BACK_OFF_MS = 1000;

export type ScanSplitterOptions = { available?: () => boolean; backOffMs?: number };

/** Int32 words of the control block shared with the helper (k1–k3 are float32 in the same words). */
const CONTROL = { request: 0, done: 1, ready: 2, target: 3, blocks: 4, count: 5, tables: 6, meta: 7, out: 8, k1: 9, k2: 10, k3: 11 } as const;
const WORKER = new URL('./vector-scan-worker.mjs', import.meta.url);

type Helper = { worker: Worker; port: MessagePort; control: Int32Array; numbers: Float32Array; ids: WeakMap<SplitTarget, number>; requests: number; idle: NodeJS.Timeout };

/**
 * A search's sign-code scan on two cores: one helper thread runs the same kernels over the same
 * memory (a shared WebAssembly memory) and takes the second half of the blocks while the calling
 * thread does the first; the caller waits on an atomic word, not on a message, since the scan of
 * 300k vectors is about 2 ms and a message round trip would eat into it. The scan reads the codes
 * at memory speed: it halves at 100k and 300k vectors (measured, 0.68 → 0.37 and 2.1 → 1.05 ms)
 * but not at 1M, where both cores wait on memory (6.7 ms either way), still no slower.
 *
 * Under load the second core is already busy (a query process, a parser): the helper then gets
 * its half done late, and a thread waiting for it wastes its own core. So when the caller waits
 * for the helper longer than half its own part took, scans stay whole for `backOffMs`, then the
 * helper is tried again. `available` can say no beforehand: the server passes "this is the only
 * request running", so that under load scans do not even try.
 */
export function createScanSplitter({ available = () => true, backOffMs = BACK_OFF_MS }: ScanSplitterOptions = {}): ScanSplitter {
  let helper: Helper | undefined;
  let nextId = 1;
  let wholeUntil = 0;
  const forget = new FinalizationRegistry<{ id: number; helper: Helper }>(({ id, helper: owner }) => owner.port.postMessage({ id }));

  const stop = (gone: Helper) => {
    if (helper === gone) helper = undefined;
    clearTimeout(gone.idle);
    gone.port.close();
    return gone.worker.terminate();
  };

  const start = () => {
    const control = new Int32Array(new SharedArrayBuffer(Object.keys(CONTROL).length * 4));
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(WORKER, { workerData: { control, port: port2, layout: CONTROL }, transferList: [port2] });
    const started: Helper = { worker, port: port1, control, numbers: new Float32Array(control.buffer), ids: new WeakMap(), requests: 0, idle: setTimeout(() => void stop(started), IDLE_MS) };
    started.idle.unref();
    worker.unref();
    worker.on('error', () => void stop(started));
    worker.on('exit', () => helper === started && (helper = undefined));
    helper = started;
  };

  const idOf = (h: Helper, target: SplitTarget) => {
    let id = h.ids.get(target);
    if (id === undefined) {
      h.ids.set(target, (id = nextId++));
      h.port.postMessage({ id, module: target.module, memory: target.memory });
      forget.register(target, { id, helper: h });
    }
    return id;
  };

  return {
    scan(target, area, blockCount) {
      if (blockCount < MIN_BLOCKS || !(target.memory.buffer instanceof SharedArrayBuffer) || performance.now() < wholeUntil || !available()) return false;
      if (!helper) start();
      const h = helper!;
      if (Atomics.load(h.control, CONTROL.ready) !== 1) return false;
      h.idle.refresh();
      const first = blockCount >> 1;
      const { control, numbers } = h;
      control[CONTROL.target] = idOf(h, target);
      control[CONTROL.blocks] = area.blocks + first * target.strides.blocks;
      control[CONTROL.count] = blockCount - first;
      control[CONTROL.tables] = area.tables;
      control[CONTROL.meta] = area.meta + first * target.strides.meta;
      control[CONTROL.out] = area.out + first * target.strides.out;
      [numbers[CONTROL.k1], numbers[CONTROL.k2], numbers[CONTROL.k3]] = [area.k1, area.k2, area.k3];
      const request = ++h.requests;
      Atomics.store(control, CONTROL.request, request);
      Atomics.notify(control, CONTROL.request);
      const started = performance.now();
      target.kernels.scan(area.blocks, first, area.tables, area.meta, area.out, area.k1, area.k2, area.k3);
      const ownDone = performance.now();
      const ok = finished(control, request);
      const waited = performance.now() - ownDone;
      if (waited > WAIT_FLOOR_MS && waited > WAIT_SHARE * (ownDone - started)) wholeUntil = performance.now() + backOffMs;
      if (!ok) {
        // Stuck or without this target's kernels: the half is scanned here, and a stuck helper replaced.
        if (Atomics.load(control, CONTROL.done) !== -request) void stop(h);
        target.kernels.scan(control[CONTROL.blocks]!, blockCount - first, area.tables, control[CONTROL.meta]!, control[CONTROL.out]!, area.k1, area.k2, area.k3);
      }
      return true;
    },
    close: async () => {
      if (helper) await stop(helper);
    },
  };
}

/** Waits for the helper to report `request` done; false if it failed it or took too long. */
function finished(control: Int32Array, request: number): boolean {
  const deadline = performance.now() + DONE_WITHIN_MS;
  for (;;) {
    const done = Atomics.load(control, CONTROL.done);
    if (done === request) return true;
    if (done === -request) return false;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    Atomics.wait(control, CONTROL.done, done, left);
  }
}
