import test from 'ava';
import { join } from 'node:path';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteKeywordIndex } from '../../src/adapters/sqlite/keyword-index.ts';
import { namespaceToken } from '../../src/adapters/sqlite/namespaces.ts';
import { tempDir } from '../helpers/temp.ts';
import { analyzer } from '../helpers/analyzer.ts';

test('a data directory written by the FTS5 keyword index is re-indexed once and its tables dropped', async (t) => {
  const dir = tempDir();
  const path = join(dir.path, 'kbqa.db');
  let db = openSqlite(path);
  // The schema and rows exactly as the FTS5 adapter wrote them.
  const fts = `fts_${namespaceToken('kb')}`;
  db.exec(`
    CREATE TABLE keyword_rows (
      namespace TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL, fts_rowid INTEGER NOT NULL,
      PRIMARY KEY (namespace, chunk_id)
    );
    CREATE VIRTUAL TABLE "${fts}" USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2');`);
  const insert = db.prepare(`INSERT INTO "${fts}" (text) VALUES (?)`);
  const row = db.prepare('INSERT INTO keyword_rows VALUES (?, ?, ?, ?)');
  row.run('kb', 'c1', 'd1', insert.run('migrated chunks stay searchable').lastInsertRowid);
  row.run('kb', 'c2', 'd2', insert.run('another chunk about searching').lastInsertRowid);

  createSqliteKeywordIndex(db, { analyzer });
  db.close();
  db = openSqlite(path);
  const keywords = createSqliteKeywordIndex(db, { analyzer });
  t.deepEqual((await keywords.query('kb', 'chunk', 10)).map((m) => m.id).sort(), ['c1', 'c2']);
  t.is(await keywords.count('kb'), 2);
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE name = 'keyword_rows' OR name LIKE 'fts_%'").all();
  t.deepEqual(tables, []);
  db.close();
  dir.remove();
});
