import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { DocumentParser } from '../../ports/document-parser.ts';

export type WorkerParserOptions = { threads: number; maxMemoryMb: number; warmUp?: boolean; onWorkerError?: (error: unknown) => void };

/**
 * Parses in a pool of worker threads. Each task has a deadline: past it the worker is terminated
 * (pdf.js or a zip library stuck in a loop cannot be interrupted any other way) and replaced.
 * A worker that runs out of its heap dies alone; the document fails with `resource_limit`.
 */
export function createWorkerParser({ threads, maxMemoryMb, warmUp = false, onWorkerError = () => {} }: WorkerParserOptions): DocumentParser {
  const pool = new Piscina({
    filename: fileURLToPath(new URL('../../parsing/worker-entry.mjs', import.meta.url)),
    minThreads: warmUp ? threads : 0,
    maxThreads: threads,
    idleTimeout: warmUp ? Number.POSITIVE_INFINITY : 60_000,
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: Math.max(16, Math.round(maxMemoryMb / 8)) },
  });
  // A worker that dies (out of memory, terminated) is also reported on the pool: unheard, that
  // 'error' event would take the whole process down. Its task has already failed with the cause.
  pool.on('error', onWorkerError);
  // In the background: the threads load the heavy parsers (pdf.js, mammoth, exceljs) while the server starts serving.
  // It may float: nothing waits for it (ping says when it is done), and allSettled never rejects.
  let warm = !warmUp;
  if (warmUp) {
    void Promise.allSettled(Array.from({ length: threads }, () => pool.run({ warm: true }))).then(() => (warm = true));
  }
  return {
    async parse(task, { timeoutMs, onProgress }) {
      const channel = new MessageChannel();
      channel.port1.on('message', ({ done, total }: { done: number; total: number }) => onProgress?.(done, total));
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), timeoutMs);
      try {
        return await pool.run({ task, progress: channel.port2 }, { transferList: [channel.port2], signal: abort.signal });
      } catch (error) {
        if (abort.signal.aborted) return { ok: false, code: 'timeout', message: `Parsing took longer than ${Math.round(timeoutMs / 1000)} s.` };
        if (isOutOfMemory(error)) return { ok: false, code: 'resource_limit', message: `Parsing needed more than ${maxMemoryMb} MB of memory.` };
        throw error;
      } finally {
        clearTimeout(timer);
        channel.port1.close();
      }
    },
    async ping() {
      if (!warm) throw new Error('parser threads are warming up');
    },
    async close() {
      await pool.destroy();
    },
  };
}

function isOutOfMemory(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap/i.test(e?.message ?? '');
}
