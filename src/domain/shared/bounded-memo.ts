import { LRUCache } from 'lru-cache';

/**
 * Remembers `compute` per string key, keeping the `limit` most recently used: words repeat
 * across texts, but an odd vocabulary must not grow the cache forever. For pure functions only,
 * so that callers cannot tell it is there (no clock, no I/O: the cache has no time to live).
 */
export function boundedMemo<V extends {}>(compute: (key: string) => V, limit: number): (key: string) => V {
  const cache = new LRUCache<string, V>({ max: limit });
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) cache.set(key, (value = compute(key)));
    return value;
  };
}
