import test from 'ava';
import { join } from 'node:path';
import { budgetedKeywordIndex, budgetedVectorIndex } from '../../src/adapters/sqlite/budgeted-indexes.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createIndexMemory } from '../../src/adapters/sqlite/index-memory.ts';
import { createSqliteEntityGraph } from '../../src/adapters/sqlite/entity-graph.ts';
import { createSqliteKeywordIndex } from '../../src/adapters/sqlite/keyword-index.ts';
import { createSqliteVectorIndex } from '../../src/adapters/sqlite/vector-index.ts';
import { tempDir } from '../helpers/temp.ts';
import { testEntityGraph, testKeywordIndex, testVectorIndex } from './suites/search-indexes.suite.ts';
import { analyzer } from '../helpers/analyzer.ts';

const sqlite = <T>(make: (db: ReturnType<typeof openSqlite>) => T) => async () => {
  const dir = tempDir();
  const db = openSqlite(join(dir.path, 'kbqa.db'));
  return { index: make(db), cleanup: async () => (db.close(), dir.remove()) };
};

testVectorIndex(test, 'sqlite vector', sqlite(createSqliteVectorIndex));
testKeywordIndex(test, 'sqlite keyword', sqlite((db) => createSqliteKeywordIndex(db, { analyzer })));
testEntityGraph(test, 'sqlite graph', sqlite(createSqliteEntityGraph));
// A one-byte budget: every use of another namespace unloads the one before.
testVectorIndex(test, 'sqlite vector, one-byte memory budget', sqlite((db) => budgetedVectorIndex(createSqliteVectorIndex(db), createIndexMemory(1))));
testKeywordIndex(test, 'sqlite keyword, one-byte memory budget', sqlite((db) => budgetedKeywordIndex(createSqliteKeywordIndex(db, { analyzer }), createIndexMemory(1))));

test('sqlite indexes survive reopening the file', async (t) => {
  const dir = tempDir();
  const path = join(dir.path, 'kbqa.db');
  let db = openSqlite(path);
  await createSqliteVectorIndex(db).upsert('kb', [{ id: 'c1', documentId: 'd1', values: Float32Array.from([1, 0, 0]) }]);
  await createSqliteKeywordIndex(db, { analyzer }).upsert('kb', [{ id: 'c1', documentId: 'd1', text: 'persistent words' }]);
  await createSqliteEntityGraph(db).upsert('kb', [{ chunkId: 'c1', documentId: 'd1', entities: ['x', 'y'] }]);
  db.close();
  db = openSqlite(path);
  t.is((await createSqliteVectorIndex(db).query('kb', Float32Array.from([1, 0, 0]), 1))[0]?.id, 'c1');
  t.is((await createSqliteKeywordIndex(db, { analyzer }).query('kb', 'persistent', 1))[0]?.id, 'c1');
  t.is(await createSqliteEntityGraph(db).entityCount('kb'), 2);
  db.close();
  dir.remove();
});

test('sqlite keyword index: postings rebuilt on reopen stay in step with later writes', async (t) => {
  const dir = tempDir();
  const path = join(dir.path, 'kbqa.db');
  let db = openSqlite(path);
  let keywords = createSqliteKeywordIndex(db, { analyzer });
  await keywords.upsert('kb', [
    { id: 'c1', documentId: 'd1', text: 'insulin resistance in obese adults' },
    { id: 'c2', documentId: 'd2', text: 'insulin secretion by beta cells' },
    { id: 'c3', documentId: 'd3', text: 'beta blockers after myocardial infarction' },
  ]);
  const before = await keywords.query('kb', 'insulin beta cells', 10);
  db.close();
  db = openSqlite(path);
  keywords = createSqliteKeywordIndex(db, { analyzer });
  t.is(await keywords.count('kb'), 3, 'counted without loading the postings');
  t.deepEqual(await keywords.query('kb', 'insulin beta cells', 10), before, 'same ranking and scores after a restart');
  await keywords.upsert('kb', [{ id: 'c2', documentId: 'd2', text: 'glucagon from alpha cells' }]);
  await keywords.deleteByDocument('kb', 'd1');
  await keywords.upsert('kb', [{ id: 'c4', documentId: 'd4', text: 'insulin pumps' }]);
  const after = (await keywords.query('kb', 'insulin', 10)).map((m) => m.id);
  db.close();
  db = openSqlite(path);
  keywords = createSqliteKeywordIndex(db, { analyzer });
  t.deepEqual((await keywords.query('kb', 'insulin', 10)).map((m) => m.id), after);
  t.deepEqual(after, ['c4']);
  t.is(await keywords.count('kb'), 3);
  db.close();
  dir.remove();
});
