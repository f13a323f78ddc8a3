import test from 'ava';
import { join } from 'node:path';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqlitePassageStore } from '../../src/adapters/sqlite/passage-store.ts';
import { tempDir } from '../helpers/temp.ts';
import { testPassageStore } from './suites/passage-store.suite.ts';

testPassageStore(test, 'sqlite passages', async () => {
  const dir = tempDir();
  const db = openSqlite(join(dir.path, 'kbqa.db'));
  return { index: createSqlitePassageStore(db), cleanup: async () => (db.close(), dir.remove()) };
});
