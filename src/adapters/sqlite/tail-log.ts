import type { EventEmitter } from 'node:events';
import type { RecordedEvent, Subscription } from '../../ports/event-store.ts';

export type LogPage = { events: RecordedEvent[]; upTo: bigint };

type TailOptions = {
  from: bigint;
  onEvents: (batch: RecordedEvent[], upTo: bigint) => Promise<void>;
  read: (after: bigint, limit: number) => LogPage;
  /** Emits 'append' when this process appended, 'close' when the store closes. */
  signal: EventEmitter;
  pollIntervalMs: number;
  /**
   * Whether another process may have committed since last asked (SQLite's data_version): a poll
   * that finds nothing changed reads nothing, so polling often costs little.
   */
  changed?: () => boolean;
  batchSize?: number;
  onError?: (error: unknown) => void;
};

/** Catch up from a position, then follow the log: woken by local appends, polling for other processes'. */
export function tailLog({ from, onEvents, read, signal, pollIntervalMs, changed = () => true, batchSize = 500, onError }: TailOptions): Subscription {
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
      const poll = () => (changed() ? resolve() : (timer = setTimeout(poll, pollIntervalMs)));
      let timer = setTimeout(poll, pollIntervalMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = null;
    });

  const done = (async () => {
    while (!stopped) {
      const { events, upTo } = read(position, batchSize);
      if (upTo <= position) {
        await idle();
        continue;
      }
      await onEvents(events, upTo);
      position = upTo;
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
