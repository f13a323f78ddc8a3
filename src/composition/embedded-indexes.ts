import { budgetedKeywordIndex, budgetedVectorIndex } from '../adapters/sqlite/budgeted-indexes.ts';
import type { SqliteDatabase } from '../adapters/sqlite/database.ts';
import { createSqliteEntityGraph } from '../adapters/sqlite/entity-graph.ts';
import { createIndexMemory } from '../adapters/sqlite/index-memory.ts';
import { createSqliteKeywordIndex } from '../adapters/sqlite/keyword-index.ts';
import { createSqlitePassageStore } from '../adapters/sqlite/passage-store.ts';
import { createSqliteVectorIndex } from '../adapters/sqlite/vector-index.ts';
import type { Analyzer } from '../ports/analyzer.ts';

/**
 * The embedded search indexes over the data directory's database, each made on demand (a port
 * bound to a distributed engine never opens its embedded twin). Vectors and keywords share one
 * memory budget, so a knowledge base is unloaded, or kept, as a whole. The server and its query
 * processes build them here alike.
 */
export function embeddedIndexes(db: () => SqliteDatabase, analyzer: Analyzer, indexMemoryBytes: number) {
  const memory = createIndexMemory(indexMemoryBytes);
  return {
    vectors: () => budgetedVectorIndex(createSqliteVectorIndex(db()), memory),
    keywords: () => budgetedKeywordIndex(createSqliteKeywordIndex(db(), { analyzer }), memory),
    graph: () => createSqliteEntityGraph(db()),
    passages: () => createSqlitePassageStore(db()),
  };
}
