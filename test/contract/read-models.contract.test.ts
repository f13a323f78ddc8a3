import test from 'ava';
import { join } from 'node:path';
import { createSqliteCheckpointStore } from '../../src/adapters/sqlite/checkpoint-store.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteReadModelStore } from '../../src/adapters/sqlite/read-model-store.ts';
import { tempDir } from '../helpers/temp.ts';
import { testReadModels } from './suites/read-models.suite.ts';

testReadModels(test, 'sqlite', async () => {
  const dir = tempDir();
  const db = openSqlite(join(dir.path, 'kbqa.db'));
  return {
    readModels: createSqliteReadModelStore(db),
    checkpoints: createSqliteCheckpointStore(db),
    cleanup: async () => {
      db.close();
      dir.remove();
    },
  };
});
