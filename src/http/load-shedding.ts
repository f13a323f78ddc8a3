import pLimit from 'p-limit';
import { ApiError } from '../ports/api-error.ts';

/**
 * The expensive routes, by what they cost: `query` retrieves (search, chat), `run` starts a
 * workflow run, `landing` is anonymous landing-page work (a visitor's chat, a page image): a class
 * of its own, so slow public chats never take the slots of authenticated search and chat.
 */
export type LoadClass = 'query' | 'run' | 'landing';
export const LOAD_CLASSES: readonly LoadClass[] = ['query', 'run', 'landing'];

/**
 * Per class: requests in flight at once (0: no limit at all) and requests that may wait for a
 * slot, and for a class whose requests name a partition (the landing pages' agent) how many of
 * them one partition may hold, running or waiting (0: no bound); how long one may wait; how many
 * start per turn of the event loop, all classes together.
 */
export type LoadLimits = Record<LoadClass, { concurrency: number; queue: number; perPartition?: number }> & { queueWaitMs: number; startsPerTurn: number };

export type ShedReason = 'queue_full' | 'queue_timeout' | 'client_gone' | 'partition_full';
export type LoadStats = Record<LoadClass, { inFlight: number; queued: number; shed: Record<ShedReason, number> }>;

/** Gives the slot back; calling it again does nothing. */
export type Release = () => void;

/**
 * Bounded concurrency per class, with a short FIFO queue in front (p-limit). Past the queue, or
 * after waiting `queueWaitMs` in it, a request gets `503 server_overloaded` with `retry-after`:
 * under overload, clients hear it at once instead of waiting ever longer, and what the process
 * does stays bounded (so /healthz and /readyz keep answering). A waiting request whose client
 * disconnects is dropped before it runs.
 *
 * Bounding requests in flight is not enough on one event loop: offline retrieval and answering
 * are synchronous, so a request that finds a slot free runs to its end within the callback that
 * read it; the next finds the slot free again, and one turn of the loop serves every request that
 * arrived with it (150 chats: about half a second, /healthz waiting behind them). So requests
 * also start on a later turn (setImmediate), at most `startsPerTurn` per turn: what one turn does
 * stays bounded, the others wait or are turned away between turns, and everything else the
 * process does gets its turn. Requests that wait on I/O (a provider's chat) keep their slot
 * while they wait, so `concurrency` bounds those.
 */
export function createLoadShedder(limits: LoadLimits) {
  const retryAfter = String(Math.max(1, Math.ceil(limits.queueWaitMs / 1000)));
  const nextTurn = turnGate(limits.startsPerTurn);
  const lanes = Object.fromEntries(LOAD_CLASSES.map((c) => [c, partitioned(c, lane(c, limits[c].concurrency, limits[c].queue), limits[c].perPartition ?? 0)])) as Record<LoadClass, ReturnType<typeof lane>>;

  function lane(name: LoadClass, concurrency: number, queue: number) {
    const limit = concurrency > 0 ? pLimit(concurrency) : null;
    const shed: Record<ShedReason, number> = { queue_full: 0, queue_timeout: 0, client_gone: 0, partition_full: 0 };
    let inFlight = 0;
    let queued = 0;
    const overloaded = (why: string) =>
      new ApiError(503, 'server_error', 'server_overloaded', `The server is at capacity (${why}); retry after ${retryAfter} s.`, { headers: { 'retry-after': retryAfter } });
    const grant = (): Release => {
      inFlight++;
      let held = true;
      return () => {
        if (held) inFlight--;
        held = false;
      };
    };

    /** Throws the 503 when neither a slot nor a place in the queue is free. */
    function ensureRoom() {
      // Counted here rather than by p-limit: its queue may still hold entries of requests that gave
      // up; they leave it at no cost once they reach its front.
      if (limit && inFlight + queued >= concurrency + queue) {
        shed.queue_full++;
        throw overloaded(`${inFlight} ${name} requests running, ${queued} waiting`);
      }
    }

    function acquire(signal: AbortSignal): Promise<Release> {
      if (!limit) return Promise.resolve(grant());
      try {
        ensureRoom();
      } catch (error) {
        return Promise.reject(error);
      }
      if (signal.aborted) {
        shed.client_gone++;
        return Promise.reject(clientGone());
      }
      queued++;
      return new Promise<Release>((resolve, reject) => {
        let waiting = true;
        const leave = () => {
          waiting = false;
          queued--;
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
        };
        const giveUp = (reason: ShedReason, error: ApiError) => {
          if (!waiting) return;
          leave();
          shed[reason]++;
          reject(error);
        };
        const timer = setTimeout(() => giveUp('queue_timeout', overloaded(`waited ${limits.queueWaitMs} ms for a ${name} slot`)), limits.queueWaitMs);
        const onAbort = () => giveUp('client_gone', clientGone());
        signal.addEventListener('abort', onAbort, { once: true });
        void limit(async () => {
          // Gave up while queued: the slot passes on at once and the request never runs.
          if (!waiting) return;
          await nextTurn(() => waiting);
          if (!waiting) return;
          leave();
          return new Promise<void>((done) => {
            const release = grant();
            resolve(() => {
              release();
              done();
            });
          });
        });
      });
    }

    return {
      acquire: (signal: AbortSignal, _partition?: string) => acquire(signal),
      ensureRoom: (_partition?: string) => ensureRoom(),
      demand: () => inFlight + queued,
      stats: () => ({ inFlight, queued, shed: { ...shed } }),
      overloaded,
      shed,
    };
  }

  /**
   * A lane whose requests may name a partition (an agent): each partition holds at most
   * `perPartition` of its places, running or waiting, so one agent's flood leaves the others room;
   * past it, the same 503 at once.
   */
  function partitioned(name: LoadClass, inner: ReturnType<typeof lane>, perPartition: number): ReturnType<typeof lane> {
    if (perPartition <= 0) return inner;
    const held = new Map<string, number>();
    const ensureRoom = (partition?: string) => {
      const count = partition === undefined ? 0 : (held.get(partition) ?? 0);
      if (count >= perPartition) {
        inner.shed.partition_full++;
        throw inner.overloaded(`${count} ${name} requests of this one running or waiting`);
      }
      inner.ensureRoom();
    };
    async function acquire(signal: AbortSignal, partition?: string): Promise<Release> {
      if (partition === undefined) return inner.acquire(signal);
      ensureRoom(partition);
      held.set(partition, (held.get(partition) ?? 0) + 1);
      let holding = true;
      const leave = () => {
        if (!holding) return;
        holding = false;
        const left = held.get(partition)! - 1;
        if (left === 0) held.delete(partition);
        else held.set(partition, left);
      };
      try {
        const release = await inner.acquire(signal);
        return () => {
          release();
          leave();
        };
      } catch (error) {
        leave();
        throw error;
      }
    }
    return { ...inner, acquire, ensureRoom };
  }

  return {
    /** Turns a request away (503) before its body is read when its class (or its partition of it) has no room: the cheapest refusal. */
    ensureRoom: (load: LoadClass, partition?: string) => lanes[load].ensureRoom(partition),
    /** A slot of `load`'s class (within `partition`'s share), held until the returned release is called; rejects with 503 (or 499 when the client left). */
    acquire: (load: LoadClass, signal: AbortSignal, partition?: string) => lanes[load].acquire(signal, partition),
    /** Requests of `load`'s class running or waiting for a slot: 1 while a lone client's request runs. */
    demand: (load: LoadClass) => lanes[load].demand(),
    stats: (): LoadStats => Object.fromEntries(LOAD_CLASSES.map((c) => [c, lanes[c].stats()])) as LoadStats,
  };
}

export type LoadShedder = ReturnType<typeof createLoadShedder>;

/**
 * Resolves on a later turn of the event loop, `perTurn` waiters per turn, first come first
 * served; waiters no longer `wanted` are let go without using a place (they must still resolve:
 * each holds a p-limit slot until it does). An immediate scheduled from an immediate runs on the
 * next turn, so each turn starts at most `perTurn`.
 */
function turnGate(perTurn: number) {
  const waiters: { resolve(): void; wanted(): boolean }[] = [];
  let scheduled = false;
  const pump = () => {
    scheduled = false;
    let started = 0;
    while (started < perTurn && waiters.length > 0) {
      const next = waiters.shift()!;
      if (next.wanted()) started++;
      next.resolve();
    }
    if (waiters.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(pump);
  };
  return (wanted: () => boolean) =>
    new Promise<void>((resolve) => {
      waiters.push({ resolve, wanted });
      schedule();
    });
}

/** Nobody is left to answer; the status is for the logs and metrics (nginx's "client closed request"). */
const clientGone = () => new ApiError(499, 'invalid_request_error', 'client_closed_request', 'The client closed the connection while the request waited for a slot.');
