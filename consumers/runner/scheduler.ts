/**
 * How many runs one runner process executes at once, in all (`concurrency`) and for one workspace
 * (`perWorkspace`); `held`: how many requested runs it takes from the log before earlier ones
 * finish, running or waiting for a slot (the bus's window for the runner group).
 */
export type RunLimits = { concurrency: number; perWorkspace: number; held: number };

/** As the configuration's defaults (KBQA_WORKFLOW_CONCURRENCY and the rest, docs/configuration.md). */
export const DEFAULT_RUN_LIMITS: RunLimits = { concurrency: 16, perWorkspace: 4, held: 1000 };

export type RunScheduler = {
  /** Runs `task` once a slot is free for its workspace; settles as the task does. */
  schedule<T>(workspaceId: string, task: () => Promise<T>): Promise<T>;
  /** Runs executing and runs waiting for a slot. */
  counts(): { running: number; waiting: number };
  /** Gives up the runs waiting for a slot (they reject with RunsStopped); those running go on to their end. */
  dropWaiting(): void;
};

/** What a run that was waiting for a slot rejects with when the scheduler stops. */
export class RunsStopped extends Error {
  override readonly name = 'RunsStopped';
}

/**
 * Slots for runs, shared fairly: a free slot goes to the workspace served longest ago among those
 * with runs waiting (one never served, or not since it was idle, first), skipping those at their
 * own limit. One workspace's flood so takes at most `perWorkspace` slots, and another workspace's
 * run waits at most for one slot to free. No I/O, no clock: what starts next is decided each time
 * a run is submitted or ends.
 */
export function createRunScheduler({ concurrency, perWorkspace }: Pick<RunLimits, 'concurrency' | 'perWorkspace'>): RunScheduler {
  const waiting = new Map<string, (() => void)[]>();
  const running = new Map<string, number>();
  // When each busy workspace (runs waiting or running) was last given a slot; an idle one is forgotten.
  const servedAt = new Map<string, number>();
  const rejects = new Map<() => void, (error: Error) => void>();
  let turn = 0;
  let total = 0;
  let queued = 0;

  const nextStart = (): (() => void) | undefined => {
    let pick: string | undefined;
    for (const workspaceId of waiting.keys()) {
      if ((running.get(workspaceId) ?? 0) >= perWorkspace) continue;
      if (pick === undefined || (servedAt.get(workspaceId) ?? -1) < (servedAt.get(pick) ?? -1)) pick = workspaceId;
    }
    if (pick === undefined) return undefined;
    const starts = waiting.get(pick)!;
    if (starts.length === 1) waiting.delete(pick);
    servedAt.set(pick, turn++);
    return starts.shift();
  };

  const pump = () => {
    while (total < concurrency) {
      const start = nextStart();
      if (!start) return;
      start();
    }
  };

  return {
    schedule<T>(workspaceId: string, task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          rejects.delete(start);
          queued -= 1;
          total += 1;
          running.set(workspaceId, (running.get(workspaceId) ?? 0) + 1);
          // The slot is free (and the next run started) before the caller hears of the end.
          const release = () => {
            total -= 1;
            const left = running.get(workspaceId)! - 1;
            if (left > 0) running.set(workspaceId, left);
            else running.delete(workspaceId);
            if (left === 0 && !waiting.has(workspaceId)) servedAt.delete(workspaceId);
            pump();
          };
          Promise.resolve()
            .then(task)
            .then(
              (value) => (release(), resolve(value)),
              (error: unknown) => (release(), reject(error)),
            );
        };
        queued += 1;
        rejects.set(start, reject);
        const starts = waiting.get(workspaceId);
        if (starts) starts.push(start);
        else waiting.set(workspaceId, [start]);
        pump();
      });
    },
    counts: () => ({ running: total, waiting: queued }),
    dropWaiting() {
      for (const reject of rejects.values()) reject(new RunsStopped('the runner is stopping'));
      rejects.clear();
      waiting.clear();
      queued = 0;
      for (const workspaceId of servedAt.keys()) if (!running.has(workspaceId)) servedAt.delete(workspaceId);
    },
  };
}
