import { randomUUID } from 'node:crypto';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { ConcurrencyError } from '../../src/ports/event-store.ts';

/**
 * A second process appending to a shared SQLite log (test/contract/event-store-processes.contract.test.ts):
 * COUNT events on the shared stream, each with the revision it read as expected (a conflict reads
 * again), and as many on a stream of its own.
 */
const store = createSqliteEventStore({ db: openSqlite(process.env.DB!) });
const count = Number(process.env.COUNT);
let conflicts = 0;
// Every child starts at the same moment, so their appends overlap (starting tsx takes a second).
await new Promise((r) => setTimeout(r, Math.max(0, Number(process.env.START_AT) - Date.now())));
for (let i = 0; i < count; i++) {
  for (;;) {
    const last = (await store.readStream('shared')).at(-1)?.revision ?? null;
    try {
      await store.append('shared', [{ id: randomUUID(), type: 'Counted', data: { by: process.pid, i }, metadata: { schemaVersion: 1 } }], last ?? 'no_stream');
      break;
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      conflicts++;
    }
  }
  await store.append(`own-${process.pid}`, [{ id: randomUUID(), type: 'Own', data: { i }, metadata: { schemaVersion: 1 } }], 'any');
}
process.stdout.write(`done ${conflicts} conflicts\n`);
