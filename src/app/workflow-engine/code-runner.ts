import { DEFAULT_SANDBOX_LIMITS, SandboxError, type SandboxLimits } from '../../lib/js-sandbox.ts';
import { createSandboxPool } from '../../lib/js-sandbox/pool.ts';
import { MAX_NODE_OUTPUT_BYTES } from '../../domain/workflow/limits.ts';
import { type CodeRequest, NodeFailure } from '../../domain/workflow/nodes/node-type.ts';

/** The largest result a code node may give, as JSON: it goes into the run's events, as any node's outputs (limits.ts). */
export const MAX_CODE_OUTPUT_BYTES = MAX_NODE_OUTPUT_BYTES;

export type CodeRunner = { run(request: CodeRequest, signal?: AbortSignal): Promise<unknown>; close(): Promise<void> };

/** `threads`: the server's come from KBQA_CODE_THREADS (src/config.ts). */
export type CodeRunnerOptions = { threads?: number; limits?: SandboxLimits; maxOutputBytes?: number };

/**
 * The code nodes' sandbox: a pool of threads (src/lib/js-sandbox/pool.ts), started on first use
 * and ended when idle, so the code never runs on the event loop that serves requests. A fault of
 * the code becomes the node's failure, with the sandbox's code and message; an abort (the node's
 * timeout) stops the code at once and rejects with the signal's reason.
 */
export function createCodeRunner({ threads = 1, limits = DEFAULT_SANDBOX_LIMITS, maxOutputBytes = MAX_CODE_OUTPUT_BYTES }: CodeRunnerOptions = {}): CodeRunner {
  const pool = createSandboxPool({ threads, limits });
  return {
    async run({ code, inputs, timeoutMs }, signal) {
      try {
        return await pool.run({ code, inputs, timeoutMs, maxOutputBytes }, signal);
      } catch (error) {
        if (error instanceof SandboxError) throw new NodeFailure(error.code, error.message);
        throw error;
      }
    },
    close: () => pool.close(),
  };
}

/** For an engine given none (tests, tools): its threads end when idle and never keep the process alive. */
export const sharedCodeRunner = createCodeRunner();
