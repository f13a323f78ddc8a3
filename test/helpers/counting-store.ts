import type { EventStore } from '../../src/ports/event-store.ts';

/** What a wrapped store was asked: stream reads and appends, by stream id. */
export type StoreCalls = { reads: string[]; appends: string[] };

/**
 * The store as it is, counting `readStream` and `append` calls; `beforeAppend` runs before each
 * append reaches the store (to let another writer in between a read and an append, say).
 */
export function countingStore(store: EventStore, beforeAppend?: (streamId: string, call: number) => Promise<void>): { store: EventStore; calls: StoreCalls } {
  const calls: StoreCalls = { reads: [], appends: [] };
  const wrapped: EventStore = Object.create(store, {
    readStream: {
      value: (streamId: string) => {
        calls.reads.push(streamId);
        return store.readStream(streamId);
      },
    },
    append: {
      value: async (...args: Parameters<EventStore['append']>) => {
        calls.appends.push(args[0]);
        await beforeAppend?.(args[0], calls.appends.length);
        return store.append(...args);
      },
    },
  });
  return { store: wrapped, calls };
}
