import type { Passage, PassageStore } from '../../ports/passage-store.ts';

export type PassageCache = {
  /** The passages among `ids` (absent ones missing from the map), fetching only those not asked before. */
  get(ids: readonly string[]): Promise<ReadonlyMap<string, Passage>>;
};

/** The passages one retrieval has read, so its stages and its results share each fetch. */
export function passageCache(store: PassageStore, namespace: string): PassageCache {
  const known = new Map<string, Passage>();
  const asked = new Set<string>();
  return {
    async get(ids) {
      const wanted = ids.filter((id) => !asked.has(id));
      if (wanted.length > 0) {
        for (const id of wanted) asked.add(id);
        for (const [id, passage] of await store.get(namespace, wanted)) known.set(id, passage);
      }
      return known;
    },
  };
}
