import type { DocumentParser, ParseOutcome } from '../../ports/document-parser.ts';
import { type ParserProcessSettings, settingsArgs } from '../../parsing/parser-settings.ts';
import { parserBundleEnv } from './parser-bundle.ts';
import { createProcessPool, PARSER_SCRIPT } from './process-pool.ts';

export type WorkerParserOptions = {
  /** How many documents parse at once, each in a process of its own. */
  threads: number;
  maxMemoryMb: number;
  /** Start the processes at once and keep them (the first document then pays nothing). */
  warmUp?: boolean;
  /** How long idle processes live before they end and give their memory back. */
  idleMs?: number;
  onWorkerError?: (error: unknown) => void;
  /** Handed to every parser process on its command line (parsing/parser-settings.ts). */
  settings?: Partial<ParserProcessSettings>;
};

/**
 * Node flags of a parser process, for a lower peak beside the server (400-page manual, the parser
 * process alone, CPU time the same within the noise, 1.8-2.1 s either way):
 * - semi-spaces of up to 4 MB, not Node's 16: pdf.js and the layout make garbage page after page,
 *   and a larger young generation only stays resident (peak 151-160 MB against 177-185; 8 MB:
 *   164-177, 2 MB: 159-162);
 * - one V8 helper thread, not four: each thread's malloc arena stays resident (peak 142-148 MB
 *   against 152-156 with the flag above).
 */
export const PARSER_NODE_FLAGS = ['--max-semi-space-size=4', '--v8-pool-size=1'];

/**
 * Parses in child processes (process-pool.ts). Each task has a deadline: past it the process is
 * killed and replaced. A process that runs out of its heap dies alone; the document fails with
 * `resource_limit`.
 */
export function createWorkerParser({ threads, maxMemoryMb, warmUp = false, idleMs = 60_000, onWorkerError = () => {}, settings = {} }: WorkerParserOptions): DocumentParser {
  const pool = createProcessPool({
    script: PARSER_SCRIPT,
    env: parserBundleEnv,
    processes: threads,
    maxMemoryMb,
    nodeFlags: PARSER_NODE_FLAGS,
    idleMs: warmUp ? Number.MAX_SAFE_INTEGER : idleMs,
    args: settingsArgs(settings),
  });
  let warm = !warmUp;
  if (warmUp) {
    // It may float: nothing waits for it (ping says when it is done), and allSettled never rejects.
    void Promise.allSettled(Array.from({ length: threads }, () => pool.run('warm', [], { timeoutMs: 120_000 }))).then(() => (warm = true));
  }
  return {
    async parse(task, { timeoutMs, onProgress }) {
      const onEvent = (payload: unknown) => {
        const { done, total } = payload as { done: number; total: number };
        onProgress?.(done, total);
      };
      const result = await pool.run<ParseOutcome>('parse', [task], { timeoutMs, onEvent });
      if (result.ok) return result.value;
      if (result.failure === 'timeout') return { ok: false, code: 'timeout', message: `Parsing took longer than ${Math.round(timeoutMs / 1000)} s.` };
      onWorkerError(new Error(result.message));
      if (result.failure === 'out_of_memory') return { ok: false, code: 'resource_limit', message: `Parsing needed more than ${maxMemoryMb} MB of memory.` };
      return { ok: false, code: 'resource_limit', message: 'The parser process ended while reading this file.' };
    },
    async ping() {
      if (!warm) throw new Error('parser processes are warming up');
    },
    close: () => pool.close(),
  };
}
