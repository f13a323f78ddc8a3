import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createRpcProcesses } from '../adapters/local/rpc-processes.ts';
import { withYoungGeneration } from '../adapters/local/young-generation.ts';
import type { createRetrieval } from '../app/retrieval/retrieval.ts';
import type { GroundChat } from '../app/services/chat-grounding.ts';
import type { Config } from '../config.ts';

export type Retrieval = Pick<ReturnType<typeof createRetrieval>, 'retrieveContext' | 'retrieveContextAcross'> & { groundChat: GroundChat };
/** Retrievals answered so far, by where: here, in a query process, or here again after a query process failed one. */
export type RetrievalCounts = { main: number; query_process: number; main_after_query_process: number };
export type SpreadRetrieval = Retrieval & { counts(): RetrievalCounts; close(): Promise<void> };

const SCRIPT = fileURLToPath(new URL('./query-process.mjs', import.meta.url));
/** A query process lives this long without work: starting one costs about 2 s and its indexes' load. */
const IDLE_MS = 120_000;
/** Past this, a retrieval sent to a query process is answered here instead. */
const REMOTE_TIMEOUT_MS = 30_000;
/** Retrievals each query process may have waiting: its next task must not wait for a busy main process to hand it over (6 against 2: chat 288 against 266/s at 32 clients). */
const DEPTH = 6;
/** This process counts as busy when its event loop ran this share of the last moment. */
const BUSY_UTILIZATION = 0.9;
const MOMENT_MS = 50;

/**
 * Query processes open the data directory's database, so they serve only where both indexes are
 * embedded (Pinecone and MongoDB do their own scoring), and only where configured (tests that
 * want one process set KBQA_QUERY_PROCESSES=0).
 */
export function spreadRetrieval(local: Retrieval, config: Config, adapters: Record<string, string>, alone: () => boolean = () => false): SpreadRetrieval {
  const embedded = adapters.vector_index === 'embedded' && adapters.keyword_index === 'embedded';
  if (config.queryProcesses > 0 && embedded) return offloadRetrieval(local, config, alone);
  const answered: RetrievalCounts = { main: 0, query_process: 0, main_after_query_process: 0 };
  return {
    retrieveContext: (...args) => (answered.main++, local.retrieveContext(...args)),
    retrieveContextAcross: (...args) => (answered.main++, local.retrieveContextAcross(...args)),
    groundChat: (...args) => (answered.main++, local.groundChat(...args)),
    counts: () => ({ ...answered }),
    close: async () => {},
  };
}

/**
 * Retrieval on every core. Node runs JavaScript on one core per process, and retrieval (scoring,
 * rerank, the answerability gate) is most of what a search or a chat costs; so when this process
 * is busy (its event loop ran 90 % of the last 50 ms or more), retrievals go to query processes
 * (query-process.ts), children that open the same database and answer the same way, as long as
 * each has fewer than DEPTH waiting; the rest are answered here. A query process then works
 * without pause and this one, which also parses and answers every HTTP request, takes what is
 * left. A process that is not busy answers here, and so does a lone request (`alone`: no other
 * search or chat running or waiting here, none in a query process): a lone client pays no hop,
 * even one whose requests keep this process 90 % busy (at 300k chunks a third of its retrievals
 * went to a query process). `alone` alone was not enough: at 32 clients most requests still sit
 * unread in their sockets while one runs, and the query process went short of work. Processes
 * start on the first busy moment and end once idle, giving their memory back.
 *
 * A retrieval the query process fails (an invalid filter, a process that died or timed out) is
 * run again here, which answers it or throws the error the client should see.
 */
function offloadRetrieval(local: Retrieval, config: Config, alone: () => boolean): SpreadRetrieval {
  const processes = config.queryProcesses;
  const pool = createRpcProcesses({
    script: SCRIPT,
    processes,
    idleMs: IDLE_MS,
    env: { KBQA_QUERY_PROCESS_CONFIG: JSON.stringify(config) },
    execArgv: withYoungGeneration(process.execArgv),
  });
  const answered: RetrievalCounts = { main: 0, query_process: 0, main_after_query_process: 0 };
  const busy = busyMeter();
  const balanced = async <T>(method: keyof Retrieval, args: unknown[], runHere: () => Promise<T>): Promise<T> => {
    // A request that finds no other queued here and none in a query process is a lone client's.
    const lone = alone() && pool.inFlight() === 0;
    if (!busy() || lone || pool.inFlight() >= DEPTH * processes) {
      answered.main++;
      return runHere();
    }
    const result = await pool.run<T>(method, args, { timeoutMs: REMOTE_TIMEOUT_MS });
    if (result.ok) return (answered.query_process++, result.value);
    // answered here below, with the error the client should see if there is one
    answered.main_after_query_process++;
    return runHere();
  };
  return {
    // A signal cannot cross to another process; the caller's abort still ends its response.
    retrieveContext: (kb, request, options = {}) =>
      balanced('retrieveContext', [kb, request, { maxContextTokens: options.maxContextTokens }], () => local.retrieveContext(kb, request, options)),
    retrieveContextAcross: (kbs, request, options = {}) =>
      balanced('retrieveContextAcross', [kbs, request, { maxContextTokens: options.maxContextTokens }], () => local.retrieveContextAcross(kbs, request, options)),
    groundChat: (kbs, input, options = {}) => balanced('groundChat', [kbs, input], () => local.groundChat(kbs, input, options)),
    counts: () => ({ ...answered }),
    close: () => pool.close(),
  };
}

/** Whether this process's event loop was busy over the last moment, measured at most once a moment. */
function busyMeter(): () => boolean {
  let last = performance.eventLoopUtilization();
  let lastAt = performance.now();
  let busy = false;
  return () => {
    const now = performance.now();
    if (now - lastAt >= MOMENT_MS) {
      const current = performance.eventLoopUtilization();
      busy = performance.eventLoopUtilization(current, last).utilization >= BUSY_UTILIZATION;
      [last, lastAt] = [current, now];
    }
    return busy;
  };
}
