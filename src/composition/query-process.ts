import { join } from 'node:path';
import { createMetadataCatalog } from '../app/retrieval/metadata-catalog.ts';
import { openSqlite } from '../adapters/sqlite/database.ts';
import { createSqliteReadModelStore } from '../adapters/sqlite/read-model-store.ts';
import { loadTextAnalyzer } from '../adapters/text/analyzer.ts';
import type { Config } from '../config.ts';
import { embeddedIndexes } from './embedded-indexes.ts';
import { createWorkspaceModelResolver } from '../app/services/workspace-models.ts';
import { createModels } from './models.ts';
import { masterKey, openSecretStore } from './secret-store.ts';
import { providerModelFactories } from './workspace-provider-models.ts';
import { createQueryServing } from './query-serving.ts';

/**
 * What a query process (query-offload.ts) runs: retrieval over the data directory's database,
 * and a chat's grounding with it, built as the main process builds them (query-serving.ts), on a
 * connection of its own. It never writes; the indexes compare each namespace's version with the
 * one they loaded and read again what the main process changed. Metadata filters read the
 * documents each time (no projected events reach it), and a workspace provider's client is kept
 * for the resolver's TTL only (30 s), since no provider event evicts it here.
 */
export async function openQueryRetrieval(config: Config) {
  const db = openSqlite(join(config.dataDir, 'kbqa.db'));
  const analyzer = await loadTextAnalyzer();
  const readModels = createSqliteReadModelStore(db);
  const indexes = embeddedIndexes(() => db, analyzer, config.indexMemoryBytes);
  return createQueryServing({
    readModels,
    indexes: { vectors: indexes.vectors(), keywords: indexes.keywords(), graph: indexes.graph(), passages: indexes.passages() },
    analyzer,
    models: await createModels(config, analyzer),
    metadataCatalog: createMetadataCatalog(readModels, { live: false }),
    maxContextTokens: config.chat.maxContextTokens,
    workspaceModels: createWorkspaceModelResolver({ readModels, secrets: openSecretStore(config, masterKey(config)), ...providerModelFactories(config) }),
  });
}
