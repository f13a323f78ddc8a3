import { LRUCache } from 'lru-cache';

/** What an embedded index holds in memory per namespace, and how to let it go. */
export type Resident = {
  /** About how many bytes the namespace's in-memory copy holds (0 when none is loaded). */
  footprint(namespace: string): number;
  /** Drops the namespace's in-memory copy; the next use reloads it from the database. */
  unload(namespace: string): void;
};

export type IndexMemoryStats = { budgetBytes: number; bytes: number; namespaces: number; evictions: number };

/**
 * The memory budget the embedded indexes share. Each knowledge base (namespace) is one entry,
 * whatever parts (vectors, keywords) it has loaded, so a knowledge base is cold or hot as a
 * whole; past the budget the least recently used ones are unloaded. The current one is never
 * unloaded: one larger than the whole budget stays alone (it must be in memory to answer).
 */
export type IndexMemory = {
  /** Records a use of `namespace`'s `part` and what it now holds; may unload colder namespaces. */
  touch(namespace: string, part: string, index: Resident): void;
  stats(): IndexMemoryStats;
};

type Parts = Map<string, { index: Resident; bytes: number }>;

const sum = (parts: Parts) => {
  let bytes = 0;
  for (const part of parts.values()) bytes += part.bytes;
  return bytes;
};

/** `budgetBytes` 0: no budget, nothing is unloaded (what the service did before). */
export function createIndexMemory(budgetBytes: number): IndexMemory {
  let evictions = 0;
  const unlimited = budgetBytes <= 0;
  // lru-cache sizes must be positive integers and at most the budget: an entry bigger than the
  // budget counts as the whole budget, which unloads everything else and keeps it.
  const maxSize = unlimited ? Number.MAX_SAFE_INTEGER : Math.floor(budgetBytes);
  const cache = new LRUCache<string, Parts>({
    maxSize,
    sizeCalculation: (parts) => Math.min(maxSize, Math.max(1, Math.ceil(sum(parts)))),
    dispose: (parts, namespace, reason) => {
      if (reason !== 'evict') return;
      evictions += 1;
      for (const { index } of parts.values()) index.unload(namespace);
    },
  });
  return {
    touch(namespace, part, index) {
      const bytes = index.footprint(namespace);
      // A new map each time: lru-cache recomputes an entry's size only when its value changes.
      const parts: Parts = new Map(cache.get(namespace));
      if (bytes > 0) parts.set(part, { index, bytes });
      else parts.delete(part);
      if (parts.size > 0) cache.set(namespace, parts);
      else cache.delete(namespace);
    },
    stats() {
      let bytes = 0;
      for (const parts of cache.values()) bytes += sum(parts);
      return { budgetBytes: unlimited ? 0 : maxSize, bytes, namespaces: cache.size, evictions };
    },
  };
}
