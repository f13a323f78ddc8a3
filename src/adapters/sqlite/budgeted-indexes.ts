import type { KeywordIndex } from '../../ports/keyword-index.ts';
import type { VectorIndex } from '../../ports/vector-index.ts';
import type { IndexMemory, Resident } from './index-memory.ts';

/**
 * The embedded indexes under a shared memory budget: every call that names a namespace reports
 * it to the budget once it is done (failed or not), with what the index now holds for it, so
 * the budget's order is the order of use and its sizes follow loads, writes and deletes.
 *
 * Unloading is safe at any point between calls: each index writes to the database first and
 * only then brings its in-memory copy along if it has one, so a write to an unloaded namespace
 * is on disk and in the copy the next use loads. A call in flight keeps the copy it took.
 */
export function budgetedVectorIndex(index: VectorIndex & Resident, memory: IndexMemory): VectorIndex {
  const touching = after(memory, 'vectors', index);
  return {
    upsert: touching(index.upsert),
    deleteByDocument: touching(index.deleteByDocument),
    deleteChunks: touching(index.deleteChunks),
    deleteNamespace: touching(index.deleteNamespace),
    query: touching(index.query),
    count: index.count,
    ping: index.ping,
  };
}

export function budgetedKeywordIndex(index: KeywordIndex & Resident, memory: IndexMemory): KeywordIndex {
  const touching = after(memory, 'keywords', index);
  return {
    upsert: touching(index.upsert),
    deleteByDocument: touching(index.deleteByDocument),
    deleteChunks: touching(index.deleteChunks),
    deleteNamespace: touching(index.deleteNamespace),
    query: touching(index.query),
    termStats: touching(index.termStats),
    stale: index.stale,
    markAnalyzed: index.markAnalyzed,
    count: index.count,
    ping: index.ping,
  };
}

const after =
  (memory: IndexMemory, part: string, index: Resident) =>
  <A extends [string, ...unknown[]], R>(call: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    try {
      return await call(...args);
    } finally {
      memory.touch(args[0], part, index);
    }
  };
