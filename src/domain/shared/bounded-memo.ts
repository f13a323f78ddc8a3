/**
 * Remembers `compute` per string key, forgetting everything once `limit` keys are held: words
 * repeat across texts, but an odd vocabulary must not grow the cache forever.
 */
export function boundedMemo<V>(compute: (key: string) => V, limit: number): (key: string) => V {
  const cache = new Map<string, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      if (cache.size >= limit) cache.clear();
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
}
