import { fileURLToPath } from 'node:url';
import workerpool from 'workerpool';
import { RETIRE_EVENT } from '../../parsing/parser-settings.ts';

export type ProcessPoolOptions = {
  /** The entry each process runs: a module that registers its methods with workerpool.worker(). */
  script: string;
  processes: number;
  /** Each process's heap limit; unset, Node's default. */
  maxMemoryMb?: number;
  /** Node flags for the processes beside the heap limit. */
  nodeFlags?: string[];
  idleMs: number;
  /** Variables the processes get beside this one's; a function is asked once, before the first process starts. */
  env?: Record<string, string> | (() => Promise<Record<string, string>>);
  /** The processes' command-line arguments (parser settings, see parsing/parser-settings.ts). */
  args?: string[];
};

export type TaskFailure = 'timeout' | 'out_of_memory' | 'crashed';

/** What a task in a child process came to: its result, or why the process could not give one. */
export type TaskResult<T> = { ok: true; value: T } | { ok: false; failure: TaskFailure; message: string };

/** The parsers' entry (parsing/worker-process.mjs). */
export const PARSER_SCRIPT = fileURLToPath(new URL('../../parsing/worker-process.mjs', import.meta.url));

/**
 * Parsing, drawing and query processes run in child processes, not threads: a thread's memory stays with the
 * process after it stops (glibc keeps each thread's malloc arena: 260 MB of 530 MB stayed after
 * an OCR thread ended, measured), while a process that exits gives all of it back. The pool
 * (workerpool) starts processes on the first task and ends them all once idle for `idleMs`, or
 * as soon as none has a task when one asked to go (RETIRE_EVENT).
 * A task past its deadline has its process killed (a stuck pdf.js or zip loop cannot be
 * interrupted any other way), and a process that dies takes only its task with it.
 */
/** How long close waits for the processes to end (workerpool kills one that ignores its request after 2 s). */
const TERMINATE_TIMEOUT_MS = 5_000;

export function createProcessPool({ script, processes, maxMemoryMb, nodeFlags = [], idleMs, env, args = [] }: ProcessPoolOptions) {
  let pool: workerpool.Pool | null = null;
  let running = 0;
  let idleTimer: NodeJS.Timeout | null = null;
  let retiring = false;
  let variables: Promise<Record<string, string> | undefined> | undefined;
  const open = async () => {
    const extra = await (variables ??= typeof env === 'function' ? env() : Promise.resolve(env));
    return (pool ??= workerpool.pool(script, {
      workerType: 'process',
      maxWorkers: processes,
      forkArgs: args,
      forkOpts: { env: extra ? { ...process.env, ...extra } : undefined, execArgv: [...(maxMemoryMb ? [`--max-old-space-size=${maxMemoryMb}`] : []), ...nodeFlags], serialization: 'advanced' },
      // The processes' output comes through the task (relayStdStreams), so a dying process's
      // native report can be left out: its task's failure already says it ran out of memory.
      emitStdStreams: true,
      workerTerminateTimeout: 2_000,
    }));
  };
  /** The pool, now let go: the next task opens a new one, which no earlier request to retire concerns. */
  const detach = () => {
    const stopping = pool;
    pool = null;
    retiring = false;
    return stopping;
  };
  const stop = () => {
    if (running > 0 || !pool) return;
    void detach()!.terminate(true).catch(() => {});
  };
  const stopWhenIdle = () => {
    if (idleTimer) clearTimeout(idleTimer);
    // What a process asking to go holds (a large document's memory) would otherwise stay while
    // the caller works on the result: the main process indexing a 400-page PDF's chunks.
    if (retiring) return stop();
    idleTimer = setTimeout(stop, idleMs);
    idleTimer.unref();
  };
  const retireWatch = (onEvent?: (payload: unknown) => void) => {
    const relay = relayStdStreams();
    return (payload: unknown) => {
      if (payload === RETIRE_EVENT) retiring = true;
      else if (!relay(payload)) onEvent?.(payload);
    };
  };
  return {
    async run<T>(method: string, params: unknown[], { timeoutMs, onEvent }: { timeoutMs: number; onEvent?: (payload: unknown) => void }): Promise<TaskResult<T>> {
      running++;
      try {
        const value = (await (await open()).exec(method, params, { on: retireWatch(onEvent) }).timeout(timeoutMs)) as T;
        return { ok: true, value };
      } catch (error) {
        return { ok: false, ...failureOf(error) };
      } finally {
        running--;
        stopWhenIdle();
      }
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      // Bounded: a process that a signal to the whole process group (Ctrl-C, systemd, kill -TERM -pgid)
      // ended a while before, as the server left its Kafka groups, never reports its exit again, and
      // workerpool would wait for it forever.
      await detach()
        ?.terminate(true, TERMINATE_TIMEOUT_MS)
        .catch(() => {});
    },
  };
}

/**
 * Writes what a process printed to this process's streams, and tells whether the payload was
 * such output. V8's report of a heap that ran out (the last collections, then a native stack
 * trace of some 30 lines) is dropped from its first line on: the process is ending, and the
 * task's failure (out_of_memory) is what the caller logs, once.
 */
function relayStdStreams(): (payload: unknown) => boolean {
  let dying = false;
  return (payload) => {
    if (payload === null || typeof payload !== 'object') return false;
    const { stdout, stderr } = payload as { stdout?: unknown; stderr?: unknown };
    if (typeof stdout === 'string') process.stdout.write(stdout);
    else if (typeof stderr === 'string') {
      const report = stderr.search(V8_FATAL_REPORT);
      if (report >= 0) dying = true;
      if (report > 0) process.stderr.write(stderr.slice(0, report));
      else if (!dying) process.stderr.write(stderr);
    } else return false;
    return true;
  };
}
const V8_FATAL_REPORT = /<--- Last few GCs --->|FATAL ERROR: /;

function failureOf(error: unknown): { failure: TaskFailure; message: string } {
  const e = error as Error;
  if (e instanceof workerpool.Promise.TimeoutError) return { failure: 'timeout', message: e.message };
  // V8 stops a process that reaches its heap limit with SIGABRT after "Reached heap limit".
  if (/signalCode: `SIGABRT`|exitCode: `134`|heap limit|out of memory/i.test(e?.message ?? '')) return { failure: 'out_of_memory', message: e.message };
  if (/terminated unexpectedly/i.test(e?.message ?? '')) return { failure: 'crashed', message: e.message };
  throw error;
}
