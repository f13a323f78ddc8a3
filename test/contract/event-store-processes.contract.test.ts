import test from 'ava';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { run } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp.ts';

/**
 * The mixed profile's owner and parse workers append to one SQLite log from separate processes:
 * the revision check and the position are taken in one immediate transaction, so racing appends
 * to one stream conflict instead of both landing, and positions stay unique and gapless.
 */
test('appends of three processes racing on one stream: every revision once, positions gapless, each conflict refused', async (t) => {
  t.timeout(120_000);
  const dir = tempDir();
  const path = join(dir.path, 'kbqa.db');
  createSqliteEventStore({ db: openSqlite(path) });
  const COUNT = 150;
  try {
    const startAt = Date.now() + 4000;
    const children = Array.from({ length: 3 }, () => run(process.execPath, ['--import', 'tsx', 'test/helpers/append-child.ts'], { DB: path, COUNT: String(COUNT), START_AT: String(startAt) }));
    const codes = await Promise.all(children.map((c) => c.exited));
    t.deepEqual(codes, [0, 0, 0], children.map((c) => c.output()).join('\n'));
    const conflicts = children.map((c) => Number(/done (\d+) conflicts/.exec(c.output())?.[1]));
    t.log(`conflicts refused and retried: ${conflicts.join(', ')}`);
    const db = new Database(path, { readonly: true });
    const shared = db.prepare("SELECT revision FROM events WHERE stream_id = 'shared' ORDER BY revision").pluck().all() as number[];
    t.deepEqual(shared, Array.from({ length: 3 * COUNT }, (_, i) => i));
    const positions = db.prepare('SELECT position FROM events ORDER BY position').pluck().all() as number[];
    t.deepEqual(positions, Array.from({ length: 6 * COUNT }, (_, i) => i + 1));
    const perChild = db.prepare("SELECT json_extract(data, '$.by') AS by, count(*) AS n FROM events WHERE stream_id = 'shared' GROUP BY by").all() as { n: number }[];
    t.deepEqual(perChild.map((r) => r.n), [COUNT, COUNT, COUNT]);
    db.close();
  } finally {
    dir.remove();
  }
});
