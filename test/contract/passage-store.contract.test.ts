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

test('sqlite passages › a data directory from before names were kept opens, and its passages read with no name', async (t) => {
  const dir = tempDir();
  const db = openSqlite(join(dir.path, 'kbqa.db'));
  t.teardown(() => (db.close(), dir.remove()));
  db.exec(`
    CREATE TABLE passages (
      namespace TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL,
      chunk_index INTEGER NOT NULL, page INTEGER NOT NULL, heading_path TEXT NOT NULL, text TEXT NOT NULL,
      PRIMARY KEY (namespace, chunk_id)
    ) WITHOUT ROWID;
    INSERT INTO passages VALUES ('kb', 'c1', 'd1', 0, 2, '["Guide"]', 'old text');`);
  const store = createSqlitePassageStore(db);
  t.deepEqual((await store.get('kb', ['c1'])).get('c1'), { chunkId: 'c1', documentId: 'd1', documentName: null, index: 0, page: 2, headingPath: ['Guide'], text: 'old text' });
  createSqlitePassageStore(db); // opening again finds the column and adds nothing
  await store.upsert('kb', [{ chunkId: 'c1', documentId: 'd1', documentName: 'd1.pdf', index: 0, page: 2, headingPath: ['Guide'], text: 'old text' }]);
  t.is((await store.get('kb', ['c1'])).get('c1')?.documentName, 'd1.pdf');
});
