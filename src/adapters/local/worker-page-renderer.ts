import type { PageImageOutcome, PageRenderer } from '../../ports/page-renderer.ts';
import { parserBundleEnv } from './parser-bundle.ts';
import { createProcessPool, PARSER_SCRIPT } from './process-pool.ts';

export type WorkerPageRendererOptions = { threads: number; maxMemoryMb: number };

/**
 * Draws pages in processes of their own (the parser's may be busy for minutes with a long
 * document); they start on the first page asked for and end after 30 s idle. A render past its
 * deadline has its process killed, as a parse does.
 */
export function createWorkerPageRenderer({ threads, maxMemoryMb }: WorkerPageRendererOptions): PageRenderer {
  const pool = createProcessPool({ script: PARSER_SCRIPT, env: parserBundleEnv, processes: threads, maxMemoryMb, idleMs: 30_000 });
  return {
    async render(request, { timeoutMs }) {
      const result = await pool.run<PageImageOutcome>('render', [request], { timeoutMs });
      if (result.ok) return result.value;
      if (result.failure === 'timeout') return { ok: false, code: 'render_failed', message: `Drawing the page took longer than ${Math.round(timeoutMs / 1000)} s.` };
      return { ok: false, code: 'render_failed', message: `Drawing the page failed: ${result.message.split('\n')[0]}` };
    },
    close: () => pool.close(),
  };
}
