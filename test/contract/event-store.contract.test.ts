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
