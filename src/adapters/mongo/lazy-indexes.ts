import type { Collection, IndexDescription } from 'mongodb';

/**
 * The indexes an adapter relies on, created on its first call and only once. A failure (server
 * not reachable yet) is not remembered: the next call tries again instead of failing for ever.
 * createIndexes is idempotent, so several processes starting together are harmless.
 */
export function lazyIndexes(...sets: [Collection<any>, IndexDescription[]][]): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () =>
    (ready ??= Promise.all(sets.map(([collection, indexes]) => collection.createIndexes(indexes))).then(
      () => undefined,
      (error: unknown) => {
        ready = undefined;
        throw error;
      },
    ));
}
