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
};

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
          queued -= 1;
          total += 1;
          running.set(workspaceId, (running.get(workspaceId) ?? 0) + 1);
          Promise.resolve()
            .then(task)
            .then(resolve, reject)
            .finally(() => {
              total -= 1;
              const left = running.get(workspaceId)! - 1;
              if (left > 0) running.set(workspaceId, left);
              else running.delete(workspaceId);
              if (left === 0 && !waiting.has(workspaceId)) servedAt.delete(workspaceId);
              pump();
            });
        };
        queued += 1;
        const starts = waiting.get(workspaceId);
        if (starts) starts.push(start);
        else waiting.set(workspaceId, [start]);
        pump();
      });
    },
    counts: () => ({ running: total, waiting: queued }),
  };
}
