import test, { type ExecutionContext } from 'ava';
import { join } from 'node:path';
import * as sqliteVec from 'sqlite-vec';
import { openSqlite, type SqliteDatabase } from '../../src/adapters/sqlite/database.ts';
import { createSqliteVectorIndex } from '../../src/adapters/sqlite/vector-index.ts';
import type { VectorIndex } from '../../src/ports/vector-index.ts';
import { tempDir } from '../helpers/temp.ts';
import { cosine, seededVectors } from '../helpers/vectors.ts';

const { random, gaussian, randomVector } = seededVectors(5);

type Stored = { id: string; documentId: string; values: Float32Array };
const exactTop = (stored: Iterable<Stored>, q: Float32Array, k: number) =>
  [...stored].map((s) => ({ id: s.id, score: cosine(s.values, q) })).sort((a, b) => b.score - a.score).slice(0, k);

/** Clustered vectors, so that neighbours are near (as with real embeddings) and not all alike. */
function clustered(count: number, dims: number, documents: number): Stored[] {
  const centres = Array.from({ length: 40 }, () => randomVector(dims));
  return Array.from({ length: count }, (_, i) => {
    const centre = centres[Math.floor(random() * centres.length)]!;
    return { id: `c${i}`, documentId: `d${i % documents}`, values: randomVector(dims).map((x, j) => 0.6 * x + centre[j]!) };
  });
}

async function withIndex(fn: (index: VectorIndex, db: SqliteDatabase, path: string) => Promise<void>, shortlist?: number, errorMargin?: number) {
  const dir = tempDir();
  const path = join(dir.path, 'kbqa.db');
  const db = openSqlite(path);
  try {
    await fn(createSqliteVectorIndex(db, { ...(shortlist ? { shortlist: () => shortlist } : {}), ...(errorMargin === undefined ? {} : { errorMargin }) }), db, path);
  } finally {
    db.close();
    dir.remove();
  }
}

/** Mean overlap of the top 20 with exact search, over 30 queries near stored vectors. */
async function recallAt20(index: VectorIndex, stored: Stored[], t: ExecutionContext) {
  let overlap = 0;
  for (let n = 0; n < 30; n++) {
    const q = stored[Math.floor(random() * stored.length)]!.values.map((x) => x + gaussian());
    const exactIds = new Set(exactTop(stored, q, 20).map((e) => e.id));
    const found = await index.query('kb', q, 20);
    t.is(found.length, 20);
    overlap += found.filter((f) => exactIds.has(f.id)).length / 20;
    for (const f of found) t.true(Math.abs(f.score - cosine(stored[Number(f.id.slice(1))]!.values, q)) < 0.005);
    t.deepEqual(found.map((f) => f.score), found.map((f) => f.score).sort((a, b) => b - a));
  }
  return overlap / 30;
}

test('with no more shortlist than topK, rescoring what lies within the scan’s error keeps recall', async (t) => {
  const stored = clustered(4000, 256, 500);
  const recall = (margin: number) =>
    new Promise<number>((resolve, reject) => {
      withIndex(async (index) => {
        await index.upsert('kb', stored);
        resolve(await recallAt20(index, stored, t));
      }, 20, margin).catch(reject);
    });
  const [without, within] = [await recall(0), await recall(1.5)];
  t.true(within >= 0.95 && within > without, `recall@20 ${without} without the margin, ${within} with it`);
});

test('the shortlisted search agrees with exact search on a random set', async (t) => {
  await withIndex(async (index) => {
    const stored = clustered(4000, 256, 500);
    for (let i = 0; i < stored.length; i += 256) await index.upsert('kb', stored.slice(i, i + 256));
    const recall = await recallAt20(index, stored, t);
    t.true(recall >= 0.95, `recall@20 ${recall}`);
  }, 300);
});

test('a filter finds the best matches within its documents however far down the ranking they are', async (t) => {
  await withIndex(async (index) => {
    const q = randomVector(128);
    const stored = clustered(3000, 128, 300);
    // d-far's chunks point away from the query: the last of 3,000 in the unfiltered ranking.
    const far = Array.from({ length: 8 }, (_, i) => ({ id: `far${i}`, documentId: 'd-far', values: q.map((x) => -x + 0.8 * gaussian()) }));
    await index.upsert('kb', [...stored, ...far]);
    const found = await index.query('kb', q, 5, { documentIds: ['d-far'] });
    // The best five of d-far's eight, up to the int8 codes' precision on near ties.
    const exact = exactTop(far, q, 5);
    t.is(found.length, 5);
    found.forEach((f, i) => t.true(Math.abs(f.score - exact[i]!.score) < 0.003));
    t.true(found.every((f) => f.documentId === 'd-far' && f.score < 0));
    // A filter wider than the shortlist goes through the scan, still limited to its documents.
    const wide = Array.from({ length: 150 }, (_, i) => `d${i}`);
    const inWide = stored.filter((s) => wide.includes(s.documentId));
    const wideFound = await index.query('kb', q, 10, { documentIds: [...wide, 'unknown'] });
    t.true(wideFound.every((f) => wide.includes(f.documentId)));
    const exactIds = new Set(exactTop(inWide, q, 10).map((e) => e.id));
    t.true(wideFound.filter((f) => exactIds.has(f.id)).length >= 8);
  }, 100);
});

test('random upserts, replacements and deletes leave the index equal to a plain map', async (t) => {
  await withIndex(async (index) => {
    const model = new Map<string, Stored>();
    for (let round = 0; round < 30; round++) {
      const batch = Array.from({ length: 40 }, () => ({ id: `c${Math.floor(random() * 200)}`, documentId: `d${Math.floor(random() * 20)}`, values: randomVector(64) }));
      await index.upsert('kb', batch);
      for (const record of batch) model.set(record.id, record);
      const doomed = `d${Math.floor(random() * 20)}`;
      await index.deleteByDocument('kb', doomed);
      for (const [id, s] of model) if (s.documentId === doomed) model.delete(id);
      t.is(await index.count('kb'), model.size);
      const q = randomVector(64);
      const found = await index.query('kb', q, 1000);
      t.deepEqual(found.map((f) => f.id).sort(), [...model.keys()].sort());
      for (const f of found) {
        t.is(f.documentId, model.get(f.id)!.documentId);
        t.true(Math.abs(f.score - cosine(model.get(f.id)!.values, q)) < 0.01);
      }
    }
    await index.deleteNamespace('kb');
    t.deepEqual(await index.query('kb', randomVector(64), 10), []);
  }, 50);
});

test('other widths: 3 and 1536 dimensions, side by side, and a chunk re-embedded at another width', async (t) => {
  await withIndex(async (index) => {
    await index.upsert('kb', [
      { id: 'x', documentId: 'd', values: Float32Array.from([1, 0, 0]) },
      { id: 'y', documentId: 'd', values: Float32Array.from([0, 1, 0]) },
    ]);
    const wide = Array.from({ length: 300 }, (_, i) => ({ id: `w${i}`, documentId: 'd', values: randomVector(1536) }));
    await index.upsert('kb', wide);
    const narrow = await index.query('kb', Float32Array.from([0.1, 1, 0]), 5);
    t.deepEqual(narrow.map((m) => m.id), ['y', 'x']);
    t.true(Math.abs(narrow[0]!.score - cosine(Float32Array.from([0.1, 1, 0]), Float32Array.from([0, 1, 0]))) < 0.002);
    const target = wide[123]!.values;
    t.is((await index.query('kb', target, 1))[0]!.id, 'w123');
    await index.upsert('kb', [{ id: 'x', documentId: 'd', values: target }]);
    t.deepEqual((await index.query('kb', Float32Array.from([1, 0, 0]), 5)).map((m) => m.id), ['y']);
    t.deepEqual((await index.query('kb', target, 2)).map((m) => m.id).sort(), ['w123', 'x']);
    t.is(await index.count('kb'), 302);
    await t.throwsAsync(index.query('kb', new Float32Array(9000), 1), { message: /unsupported vector width/ });
  });
});

test('a loaded copy notices writes it did not make: another connection, a rolled-back transaction', async (t) => {
  await withIndex(async (index, db, path) => {
    const a = randomVector(64);
    const b = randomVector(64);
    await index.upsert('kb', [{ id: 'a', documentId: 'd', values: a }]);
    t.is((await index.query('kb', b, 1))[0]!.id, 'a');
    const other = openSqlite(path);
    await createSqliteVectorIndex(other).upsert('kb', [{ id: 'b', documentId: 'd', values: b }]);
    other.close();
    t.is((await index.query('kb', b, 1))[0]!.id, 'b');
    t.throws(() =>
      db.transaction(() => {
        void index.upsert('kb', [{ id: 'c', documentId: 'd', values: b }]);
        throw new Error('rolled back');
      })(),
    );
    t.deepEqual((await index.query('kb', b, 5)).map((m) => m.id).sort(), ['a', 'b']);
  });
});

test('a file written by the sqlite-vec adapter is migrated; stale codes are rebuilt on open', async (t) => {
  const dir = tempDir();
  const path = join(dir.path, 'kbqa.db');
  let db = openSqlite(path);
  sqliteVec.load(db);
  db.exec(`
    CREATE TABLE vector_rows (vec_rowid INTEGER PRIMARY KEY AUTOINCREMENT, namespace TEXT NOT NULL, chunk_id TEXT NOT NULL,
      document_id TEXT NOT NULL, dims INTEGER NOT NULL, UNIQUE (namespace, chunk_id));
    CREATE VIRTUAL TABLE vectors_3 USING vec0(namespace TEXT PARTITION KEY, embedding FLOAT[3] distance_metric=cosine, document_id TEXT, +chunk_id TEXT);`);
  const old = [
    ['c1', Float32Array.from([1, 0, 0])],
    ['c2', Float32Array.from([0, 1, 0])],
  ] as const;
  old.forEach(([id, values], i) => {
    db.prepare('INSERT INTO vector_rows (vec_rowid, namespace, chunk_id, document_id, dims) VALUES (?, ?, ?, ?, 3)').run(i + 1, 'kb', id, 'd1');
    db.prepare('INSERT INTO vectors_3 (rowid, namespace, embedding, document_id, chunk_id) VALUES (?, ?, ?, ?, ?)').run(
      BigInt(i + 1), 'kb', Buffer.from(values.buffer), 'd1', id,
    );
  });
  db.close();

  db = openSqlite(path);
  t.deepEqual((await createSqliteVectorIndex(db).query('kb', Float32Array.from([0, 1, 0.1]), 5)).map((m) => m.id), ['c2', 'c1']);
  t.falsy(db.prepare("SELECT 1 FROM sqlite_master WHERE name IN ('vector_rows', 'vectors_3')").get());
  db.prepare("UPDATE vector_settings SET value = 'an older format' WHERE key = 'code_format'").run();
  db.prepare('UPDATE vector_chunks SET codes = x\'00\'').run();
  db.close();

  db = openSqlite(path);
  const index = createSqliteVectorIndex(db);
  t.deepEqual((await index.query('kb', Float32Array.from([1, 0.1, 0]), 5)).map((m) => m.id), ['c1', 'c2']);
  t.is(await index.count('kb'), 2);
  db.close();
  dir.remove();
});
