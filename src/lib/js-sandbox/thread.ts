import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createJsSandbox, SandboxError, type SandboxCall, type SandboxLimits } from '../js-sandbox.ts';
import type { ThreadReply } from './protocol.ts';

/**
 * The body of one sandbox thread (pool.ts starts it): one engine, calls one at a time, each
 * answered by its id. A fault of the code is a SandboxError the pool turns back into one; anything
 * else is a bug, passed on as a plain message. Nothing here keeps time: the pool does, from outside.
 */
const port = parentPort!;
/** Nice 5: a third of the CPU of a nice-0 thread when the two compete for a core, all of it when the loop is idle. */
const SANDBOX_NICE = 5;
// Requests first: on Linux a nice value belongs to one thread, so busy code yields the CPU to the event
// loop when cores are short (elsewhere it would lower the whole process, so it is left alone).
if (process.platform === 'linux') setPriority(SANDBOX_NICE);
const sandbox = await createJsSandbox(workerData as SandboxLimits);

port.on('message', ({ id, call }: { id: number; call: SandboxCall }) => {
  sandbox.run(call).then(
    (value) => port.postMessage({ id, ok: true, value } satisfies ThreadReply),
    (error: unknown) => {
      const reply: ThreadReply =
        error instanceof SandboxError ? { id, ok: false, code: error.code, message: error.message } : { id, ok: false, message: error instanceof Error ? error.message : String(error) };
      port.postMessage(reply);
    },
  );
});
port.postMessage('ready');
