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

test('sqlite passages written before placement existed: columns added on open, unplaced until placed', async (t) => {
  const dir = tempDir();
  const db = openSqlite(join(dir.path, 'kbqa.db'));
  try {
    // The table and rows as the code before issue 13 left them.
    db.exec(`CREATE TABLE passages (
      namespace TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL,
      chunk_index INTEGER NOT NULL, page INTEGER NOT NULL, heading_path TEXT NOT NULL, text TEXT NOT NULL,
      PRIMARY KEY (namespace, chunk_id)
    ) WITHOUT ROWID`);
    const old = db.prepare('INSERT INTO passages VALUES (?, ?, ?, ?, 1, ?, ?)');
    for (const [ns, chunk, doc, index] of [['kb_b', 'c1', 'd1', 0], ['kb_a', 'c2', 'd2', 0], ['kb_a', 'c3', 'd2', 1], ['kb_a', 'c4', 'd1', 0]] as const) {
      old.run(ns, chunk, doc, index, '[]', `text of ${chunk}`);
    }
    const store = createSqlitePassageStore(db);
    t.deepEqual(await store.unplaced(null, 10), [
      { namespace: 'kb_a', documentId: 'd1' },
      { namespace: 'kb_a', documentId: 'd2' },
      { namespace: 'kb_b', documentId: 'd1' },
    ]);
    t.deepEqual(await store.unplaced({ namespace: 'kb_a', documentId: 'd1' }, 1), [{ namespace: 'kb_a', documentId: 'd2' }]);
    t.like((await store.listByDocument('kb_a', 'd2', { limit: 10 }))[1], { chunkId: 'c3', text: 'text of c3', charStart: 0, charEnd: 0, tokenCount: 0 });
    await store.place('kb_a', [{ chunkId: 'c2', charStart: 0, charEnd: 10, tokenCount: 3 }, { chunkId: 'c3', charStart: 11, charEnd: 20, tokenCount: 2 }]);
    t.deepEqual(await store.unplaced(null, 10), [{ namespace: 'kb_a', documentId: 'd1' }, { namespace: 'kb_b', documentId: 'd1' }]);
    t.like((await store.get('kb_a', ['c3'])).get('c3'), { charStart: 11, charEnd: 20, tokenCount: 2 });
    createSqlitePassageStore(db); // opening again changes nothing
    t.is(await store.count('kb_a'), 3);
  } finally {
    db.close();
    dir.remove();
  }
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
  t.deepEqual((await store.get('kb', ['c1'])).get('c1'), { chunkId: 'c1', documentId: 'd1', documentName: null, index: 0, page: 2, headingPath: ['Guide'], text: 'old text', charStart: 0, charEnd: 0, tokenCount: 0 });
  createSqlitePassageStore(db); // opening again finds the column and adds nothing
  await store.upsert('kb', [{ chunkId: 'c1', documentId: 'd1', documentName: 'd1.pdf', index: 0, page: 2, headingPath: ['Guide'], text: 'old text', charStart: 0, charEnd: 8, tokenCount: 2 }]);
  t.is((await store.get('kb', ['c1'])).get('c1')?.documentName, 'd1.pdf');
});
