import { join } from 'node:path';
import { createRetrieval } from '../app/retrieval/retrieval.ts';
import { createMetadataFilter } from '../app/retrieval/metadata-filter.ts';
import { budgetedKeywordIndex, budgetedVectorIndex } from '../adapters/sqlite/budgeted-indexes.ts';
import { openSqlite } from '../adapters/sqlite/database.ts';
import { createSqliteEntityGraph } from '../adapters/sqlite/entity-graph.ts';
import { createIndexMemory } from '../adapters/sqlite/index-memory.ts';
import { createSqliteKeywordIndex } from '../adapters/sqlite/keyword-index.ts';
import { createSqlitePassageStore } from '../adapters/sqlite/passage-store.ts';
import { createSqliteReadModelStore } from '../adapters/sqlite/read-model-store.ts';
import { createSqliteVectorIndex } from '../adapters/sqlite/vector-index.ts';
import { loadTextAnalyzer } from '../adapters/text/analyzer.ts';
import type { Config } from '../config.ts';
import { createModels } from './models.ts';

/**
 * What a query process (query-offload.ts) runs: retrieval over the data directory's database,
 * as the main process runs it, on a connection of its own. It never writes; the indexes compare
 * each namespace's version with the one they loaded and read again what the main process
 * changed. Metadata filters read the documents each time (no projected events reach it).
 */
export async function openQueryRetrieval(config: Config) {
  const db = openSqlite(join(config.dataDir, 'kbqa.db'));
  const analyzer = await loadTextAnalyzer();
  const memory = createIndexMemory(config.indexMemoryBytes);
  const readModels = createSqliteReadModelStore(db);
  const { embedders, rerankers, defaultReranker } = await createModels(config, analyzer);
  return createRetrieval({
    readModels,
    indexes: {
      vectors: budgetedVectorIndex(createSqliteVectorIndex(db), memory),
      keywords: budgetedKeywordIndex(createSqliteKeywordIndex(db, { analyzer }), memory),
      graph: createSqliteEntityGraph(db),
      passages: createSqlitePassageStore(db),
    },
    analyzer,
    embedders,
    rerankers,
    defaultReranker,
    metadataFilter: createMetadataFilter(readModels, { live: false }),
    maxContextTokens: config.chat.maxContextTokens,
  });
}
