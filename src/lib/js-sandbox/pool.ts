import { Worker } from 'node:worker_threads';
import { DEFAULT_SANDBOX_LIMITS, type SandboxCall, SandboxError, type SandboxLimits } from '../js-sandbox.ts';
import { sandboxThreadUrl } from './bundle.ts';
import type { ThreadReply } from './protocol.ts';

export type SandboxPoolOptions = {
  /** Threads at most, i.e. calls running at once; further calls wait their turn. */
  threads: number;
  limits?: SandboxLimits;
  /** How long past its time limit a call may hold its thread before the thread is stopped from outside. */
  graceMs?: number;
  /** A thread idle this long ends, giving its memory back; the next call starts one again. */
  idleMs?: number;
};

type Call = { call: SandboxCall; signal?: AbortSignal; resolve(value: unknown): void; reject(error: unknown): void; onAbort?: () => void };
type Thread = { worker: Worker; ready: Promise<void>; call?: Call; timer?: NodeJS.Timeout; idle?: NodeJS.Timeout };

/** V8 heap of a thread: the engine's own heap is WASM memory under `limits.memoryBytes`; this bounds the copies of inputs and results. */
const THREAD_HEAP_MB = 256;

/**
 * The code nodes' sandbox off the event loop: QuickJS runs in worker threads, at most `threads` of
 * them, so an endless or heavy code node takes a thread, never the server's loop. Time is kept
 * here, as wall time from the moment a call reaches a thread that is ready: the engine interrupts
 * itself at its deadline (and keeps its thread), and should it not (a long built-in, a collection
 * near its heap limit), the thread is terminated `graceMs` later and the call fails code_timeout.
 * An abort (the node's timeout, the run stopped) terminates the thread running the call, or takes
 * a waiting call off the queue. A terminated thread is replaced only when a call needs it.
 *
 * node:worker_threads directly, not workerpool: workerpool's timeout starts when a task is handed
 * to a thread, including a new thread's start (≈ 0.1–0.3 s to load and compile the engine), which
 * would fail short limits right after a replacement; and on a timeout it first asks the thread to
 * clean up and terminates it only after `workerTerminateTimeout`, which a busy thread never answers.
 */
export function createSandboxPool({ threads: size, limits = DEFAULT_SANDBOX_LIMITS, graceMs = 100, idleMs = 30_000 }: SandboxPoolOptions) {
  const threads = new Set<Thread>();
  const idle: Thread[] = [];
  const queue: Call[] = [];
  let nextId = 0;
  let closed = false;

  const start = (): Thread => {
    const thread = {} as Thread;
    thread.ready = sandboxThreadUrl().then(
      (url) =>
        new Promise<void>((resolve, reject) => {
          // No execArgv: the bundle is plain JavaScript, so a parent's `--import tsx` (tests, benchmarks) need not load again in each thread.
          thread.worker = new Worker(url, { workerData: limits, execArgv: [], resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
          thread.worker.once('message', () => resolve());
          thread.worker.on('error', (error) => {
            reject(error);
            fail(thread, error);
          });
          thread.worker.on('exit', () => fail(thread, new Error('the sandbox thread stopped')));
        }),
    );
    threads.add(thread);
    return thread;
  };

  /** The thread is gone (crashed, out of memory, terminated): its call fails, and it leaves the pool. */
  const fail = (thread: Thread, error: unknown) => {
    if (!threads.delete(thread)) return;
    const index = idle.indexOf(thread);
    if (index >= 0) idle.splice(index, 1);
    clearTimeout(thread.idle);
    const call = thread.call;
    if (call) finish(thread, call, () => call.reject(threadFault(error)));
    pump();
  };

  const stop = (thread: Thread) => {
    threads.delete(thread);
    void thread.worker?.terminate();
  };

  const finish = (thread: Thread, call: Call, settle: () => void) => {
    clearTimeout(thread.timer);
    thread.call = undefined;
    if (call.onAbort) call.signal?.removeEventListener('abort', call.onAbort);
    settle();
  };

  const dispatch = async (thread: Thread, call: Call) => {
    thread.call = call;
    try {
      await thread.ready;
    } catch (error) {
      return fail(thread, error); // The thread could not start: its call fails (once).
    }
    if (thread.call !== call) return; // Aborted while the thread started.
    thread.worker.ref();
    const id = ++nextId;
    thread.timer = setTimeout(() => {
      stop(thread);
      finish(thread, call, () => call.reject(new SandboxError('code_timeout', 'the code ran past its time limit')));
      pump();
    }, call.call.timeoutMs + graceMs);
    const onReply = (reply: ThreadReply | 'ready') => {
      if (reply === 'ready' || reply.id !== id) return;
      thread.worker.off('message', onReply);
      finish(thread, call, () => (reply.ok ? call.resolve(reply.value) : call.reject(reply.code ? new SandboxError(reply.code, reply.message) : new Error(reply.message))));
      release(thread);
    };
    thread.worker.on('message', onReply);
    thread.worker.postMessage({ id, call: call.call });
  };

  /** A thread done with its call takes the next one, or waits, unreferenced, until it ends idle. */
  const release = (thread: Thread) => {
    if (!threads.has(thread)) return;
    const call = queue.shift();
    if (call) return void dispatch(thread, call);
    thread.worker.unref();
    idle.push(thread);
    thread.idle = setTimeout(() => {
      if (idle.includes(thread)) idle.splice(idle.indexOf(thread), 1);
      stop(thread);
    }, idleMs);
    thread.idle.unref();
  };

  const pump = () => {
    while (queue.length > 0 && !closed) {
      const thread = idle.pop() ?? (threads.size < size ? start() : undefined);
      if (!thread) return;
      clearTimeout(thread.idle);
      void dispatch(thread, queue.shift()!);
    }
  };

  const abort = (call: Call) => {
    const index = queue.indexOf(call);
    if (index >= 0) queue.splice(index, 1);
    const thread = [...threads].find((t) => t.call === call);
    if (thread) {
      stop(thread);
      finish(thread, call, () => undefined);
      pump();
    }
    call.reject(call.signal!.reason);
  };

  return {
    /** Runs one call on a thread; a fault of the code throws SandboxError, an abort the signal's reason. */
    run(call: SandboxCall, signal?: AbortSignal): Promise<unknown> {
      if (closed) return Promise.reject(new Error('the sandbox pool is closed'));
      signal?.throwIfAborted();
      return new Promise((resolve, reject) => {
        const queued: Call = { call, signal, resolve, reject };
        if (signal) {
          queued.onAbort = () => abort(queued);
          signal.addEventListener('abort', queued.onAbort, { once: true });
        }
        queue.push(queued);
        pump();
      });
    },
    /** Threads running or started (for tests and metrics). */
    size: () => threads.size,
    async close() {
      closed = true;
      for (const call of queue.splice(0)) call.reject(new Error('the sandbox pool is closed'));
      const all = [...threads];
      threads.clear();
      idle.length = 0;
      await Promise.all(
        all.map(async (thread) => {
          clearTimeout(thread.idle);
          const call = thread.call;
          if (call) finish(thread, call, () => call.reject(new Error('the sandbox pool is closed')));
          await thread.ready.catch(() => undefined);
          await thread.worker?.terminate();
        }),
      );
    },
  };
}

export type SandboxPool = ReturnType<typeof createSandboxPool>;

/** A thread that died under a call: out of its heap is the code's fault (code_memory); anything else is not. */
function threadFault(error: unknown): Error {
  if ((error as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY') return new SandboxError('code_memory', 'the code exhausted the sandbox’s memory');
  return error instanceof Error ? error : new Error(String(error));
}
