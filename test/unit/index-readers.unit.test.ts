import test from 'ava';
import { join } from 'node:path';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteKeywordIndex } from '../../src/adapters/sqlite/keyword-index.ts';
import { createSqliteVectorIndex } from '../../src/adapters/sqlite/vector-index.ts';
import { analyzer } from '../helpers/analyzer.ts';
import { tempDir } from '../helpers/temp.ts';
import { seededVectors } from '../helpers/vectors.ts';

const dir = tempDir('kbqa-index-readers-');
test.after.always(() => dir.remove());

// A query process opens the data directory's database beside the process that writes it: its
// indexes' copies in memory must follow every write, never answer from what they loaded first.
test('an index that only reads follows the writes another connection makes: upserts, deletes, a dropped namespace', async (t) => {
  const path = join(dir.path, 'kbqa.db');
  const writerDb = openSqlite(path);
  const readerDb = openSqlite(path);
  const writer = { keywords: createSqliteKeywordIndex(writerDb, { analyzer }), vectors: createSqliteVectorIndex(writerDb) };
  const reader = { keywords: createSqliteKeywordIndex(readerDb, { analyzer }), vectors: createSqliteVectorIndex(readerDb) };
  const { randomVector } = seededVectors(7);
  const probe = randomVector(16);
  try {
    await writer.keywords.upsert('kb', [{ id: 'c1', documentId: 'd1', text: 'the harbour crane lifts containers' }]);
    await writer.vectors.upsert('kb', [{ id: 'c1', documentId: 'd1', values: randomVector(16) }]);
    t.deepEqual((await reader.keywords.query('kb', 'crane', 5)).map((h) => h.id), ['c1']);
    t.deepEqual((await reader.vectors.query('kb', probe, 5)).map((h) => h.id), ['c1']);

    await writer.keywords.upsert('kb', [{ id: 'c2', documentId: 'd2', text: 'a second crane waits at the quay' }]);
    await writer.vectors.upsert('kb', [{ id: 'c2', documentId: 'd2', values: probe }]);
    t.deepEqual((await reader.keywords.query('kb', 'quay', 5)).map((h) => h.id), ['c2'], 'a chunk written after the reader loaded');
    t.is((await reader.vectors.query('kb', probe, 5))[0]?.id, 'c2');

    await writer.keywords.deleteByDocument('kb', 'd1');
    await writer.vectors.deleteByDocument('kb', 'd1');
    t.deepEqual((await reader.keywords.query('kb', 'crane', 5)).map((h) => h.id), ['c2'], 'a deleted document is gone for the reader too');
    t.deepEqual((await reader.vectors.query('kb', probe, 5)).map((h) => h.id), ['c2']);

    await writer.keywords.deleteNamespace('kb');
    await writer.vectors.deleteNamespace('kb');
    t.deepEqual(await reader.keywords.query('kb', 'crane', 5), []);
    t.deepEqual(await reader.vectors.query('kb', probe, 5), []);
  } finally {
    writerDb.close();
    readerDb.close();
  }
});
