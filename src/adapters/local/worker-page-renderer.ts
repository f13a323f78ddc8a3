import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { PageImageOutcome, PageRenderer } from '../../ports/page-renderer.ts';

export type WorkerPageRendererOptions = { threads: number; maxMemoryMb: number };

/**
 * Draws pages in worker threads of their own (the parser's threads may be busy for minutes with a
 * long document). A render past its deadline has its worker terminated, as a parse does.
 */
export function createWorkerPageRenderer({ threads, maxMemoryMb }: WorkerPageRendererOptions): PageRenderer {
  const pool = new Piscina({
    filename: fileURLToPath(new URL('../../parsing/worker-entry.mjs', import.meta.url)),
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: Math.max(16, Math.round(maxMemoryMb / 8)) },
  });
  // A worker that dies is reported on the pool too; its task has already failed with the cause.
  pool.on('error', () => {});
  return {
    async render(request, { timeoutMs }) {
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), timeoutMs);
      try {
        return (await pool.run({ render: request }, { signal: abort.signal })) as PageImageOutcome;
      } catch (error) {
        if (abort.signal.aborted) return { ok: false, code: 'render_failed', message: `Drawing the page took longer than ${Math.round(timeoutMs / 1000)} s.` };
        return { ok: false, code: 'render_failed', message: `Drawing the page failed: ${(error as Error).message}` };
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await pool.destroy();
    },
  };
}
