import type { EventStore, RecordedEvent } from '../ports/event-store.ts';

export type LogRange = {
  /** Exclusive. */
  after: bigint;
  /** Inclusive. */
  through: bigint;
  types: ReadonlySet<string>;
  /** Aborting ends the read early (the reader left); the promise then resolves. */
  signal?: AbortSignal;
};

/**
 * The events of some types in a range of the log, batch by batch in log order. Read through the
 * store's catch-up subscription, stopped once it has read through the range: it is the read every
 * adapter filters by type in the store, so the chunk batches between lifecycle events are never
 * decoded. `onBatch` is awaited before the next batch.
 */
export function readLogRange(store: EventStore, { after, through, types, signal }: LogRange, onBatch: (events: RecordedEvent[]) => Promise<void> | void): Promise<void> {
  if (after >= through || signal?.aborted) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const onAbort = () => settle();
    const subscription = store.subscribeToAll(
      after,
      async (batch, upTo) => {
        if (settled) return;
        try {
          const inRange = batch.filter((event) => event.position <= through);
          if (inRange.length > 0) await onBatch(inRange);
        } catch (error) {
          return settle(error);
        }
        if (upTo >= through) settle();
      },
      { eventTypes: types, batchSize: 256, onError: (error) => settle(error ?? new Error('the log could not be read')) },
    );
    // Stopped outside the handler: stop() waits for the handler that is running, which may be the caller.
    function settle(error?: unknown) {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      setImmediate(() => void subscription.stop().then(() => (error === undefined ? resolve() : reject(error)), reject));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
