import type { EventEmitter } from 'node:events';
import type { RecordedEvent, Subscription } from '../../ports/event-store.ts';

type TailOptions = {
  from: bigint;
  onEvents: (batch: RecordedEvent[]) => Promise<void>;
  read: (after: bigint, limit: number) => RecordedEvent[];
  /** Emits 'append' when this process appended, 'close' when the store closes. */
  signal: EventEmitter;
  pollIntervalMs: number;
  batchSize?: number;
  onError?: (error: unknown) => void;
};

/** Catch up from a position, then follow the log: woken by local appends, polling for other processes'. */
export function tailLog({ from, onEvents, read, signal, pollIntervalMs, batchSize = 500, onError }: TailOptions): Subscription {
  let position = from;
  let stopped = false;
  let wake: (() => void) | null = null;
  const nudge = () => wake?.();
  const stop = () => {
    stopped = true;
    nudge();
  };
  signal.on('append', nudge);
  signal.on('close', stop);

  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollIntervalMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = null;
    });

  const done = (async () => {
    while (!stopped) {
      const batch = read(position, batchSize);
      if (batch.length === 0) {
        await idle();
        continue;
      }
      await onEvents(batch);
      position = batch[batch.length - 1]!.position;
    }
  })()
    .catch((error) => onError?.(error))
    .finally(() => {
      signal.off('append', nudge);
      signal.off('close', stop);
    });

  return {
    async stop() {
      stop();
      await done;
    },
  };
}
