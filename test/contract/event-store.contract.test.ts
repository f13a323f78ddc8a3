import test from 'ava';
import { join } from 'node:path';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { tempDir } from '../helpers/temp.ts';
import { testEventStore } from './suites/event-store.suite.ts';

testEventStore(test, 'sqlite', async () => {
  const dir = tempDir();
  const db = openSqlite(join(dir.path, 'kbqa.db'));
  const store = createSqliteEventStore({ db, pollIntervalMs: 20 });
  return {
    store,
    cleanup: async () => {
      await store.close();
      db.close();
      dir.remove();
    },
  };
});

test('sqlite › a second process’s appends reach a live subscription (polling)', async (t) => {
  const dir = tempDir();
  const path = join(dir.path, 'kbqa.db');
  const reader = openSqlite(path);
  const writer = openSqlite(path);
  const store = createSqliteEventStore({ db: reader, pollIntervalMs: 20 });
  const other = createSqliteEventStore({ db: writer });
  const seen: string[] = [];
  const sub = store.subscribeToAll(0n, async (batch) => void seen.push(...batch.map((e) => e.type)));
  await other.append('s', [{ id: 'e1', type: 'FromElsewhere', data: {}, metadata: { schemaVersion: 1 } }], 'no_stream');
  const deadline = Date.now() + 3000;
  while (!seen.includes('FromElsewhere') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  t.deepEqual(seen, ['FromElsewhere']);
  await sub.stop();
  reader.close();
  writer.close();
  dir.remove();
});

test('sqlite › appends of two processes interleaved reach each one’s subscribers in order, once, whatever each keeps of its own', async (t) => {
  const dir = tempDir();
  const path = join(dir.path, 'kbqa.db');
  const dbs = [openSqlite(path), openSqlite(path)];
  const [mine, other] = dbs.map((db) => createSqliteEventStore({ db, pollIntervalMs: 20 }));
  const seen: string[] = [];
  const uploads: string[] = [];
  const all = mine!.subscribeToAll(0n, async (batch) => void seen.push(...batch.map((e) => e.id)));
  const filtered = mine!.subscribeToAll(0n, async (batch) => void uploads.push(...batch.map((e) => e.id)), { eventTypes: new Set(['Uploaded']) });
  const appended: string[] = [];
  for (let i = 0; i < 60; i++) {
    // Runs of our own appends broken by the other process's: a gap our window must not paper over.
    const store = i % 7 === 3 || i % 11 === 0 ? other! : mine!;
    const id = `e${i}`;
    await store.append(`s${i % 5}`, [{ id, type: i % 3 ? 'Uploaded' : 'Parsed', data: { i }, metadata: { schemaVersion: 1 } }], 'any');
    appended.push(id);
    if (i % 4 === 0) await new Promise((r) => setTimeout(r, 5));
  }
  const deadline = Date.now() + 5000;
  while (seen.length < appended.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 60));
  t.deepEqual(seen, appended);
  t.deepEqual(uploads, appended.filter((_, i) => i % 3 !== 0));
  await all.stop();
  await filtered.stop();
  dbs.forEach((db) => db.close());
  dir.remove();
});

test('sqlite › an append inside a caller’s transaction that rolls back never reaches a subscriber, even when another process takes its position', async (t) => {
  const dir = tempDir();
  const path = join(dir.path, 'kbqa.db');
  const db = openSqlite(path);
  const otherDb = openSqlite(path);
  const store = createSqliteEventStore({ db, pollIntervalMs: 20 });
  const other = createSqliteEventStore({ db: otherDb });
  await store.append('s', [{ id: 'kept', type: 'T', data: {}, metadata: { schemaVersion: 1 } }], 'any');
  const rollBack = db.transaction(() => {
    void store.append('s', [{ id: 'undone', type: 'T', data: {}, metadata: { schemaVersion: 1 } }], 'any');
    throw new Error('roll back');
  });
  t.throws(() => rollBack(), { message: 'roll back' });
  // The rolled-back position is free again: the other process's event takes it.
  await other.append('o', [{ id: 'elsewhere', type: 'T', data: {}, metadata: { schemaVersion: 1 } }], 'any');
  const seen: string[] = [];
  const sub = store.subscribeToAll(1n, async (batch) => void seen.push(...batch.map((e) => e.id)));
  const deadline = Date.now() + 3000;
  while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 60));
  t.deepEqual(seen, ['elsewhere']);
  await sub.stop();
  db.close();
  otherDb.close();
  dir.remove();
});
