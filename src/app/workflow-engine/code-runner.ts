import { createJsSandbox, DEFAULT_SANDBOX_LIMITS, type JsSandbox, SandboxError } from '../../lib/js-sandbox.ts';
import { type CodeRequest, NodeFailure } from '../../domain/workflow/nodes/node-type.ts';

/** The largest result a code node may give, as JSON: it goes into the run's events. */
export const MAX_CODE_OUTPUT_BYTES = 1024 * 1024;

export type CodeRunner = { run(request: CodeRequest): Promise<unknown> };

/**
 * The code nodes' sandbox, made on first use (compiling the WASM engine takes tens of
 * milliseconds, which a process that runs no code node never pays) and kept for the process.
 * A fault of the code becomes the node's failure, with the sandbox's code and message.
 */
export function createCodeRunner(limits = DEFAULT_SANDBOX_LIMITS, maxOutputBytes = MAX_CODE_OUTPUT_BYTES): CodeRunner {
  let sandbox: Promise<JsSandbox> | undefined;
  return {
    async run({ code, inputs, timeoutMs }) {
      sandbox ??= createJsSandbox(limits);
      try {
        return await (await sandbox).run({ code, inputs, timeoutMs, maxOutputBytes });
      } catch (error) {
        if (error instanceof SandboxError) throw new NodeFailure(error.code, error.message);
        throw error;
      }
    },
  };
}

/** One per process unless the runner is given its own: the engine is single-threaded, so more would not run more at once. */
export const sharedCodeRunner = createCodeRunner();
