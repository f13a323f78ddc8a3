import test from 'ava';
import { randomUUID } from 'node:crypto';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { readLogRange } from '../../src/app/log-range.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';

/** A log of ten events alternating two types, positions 1 to 10. */
async function tenEvents() {
  const store = createSqliteEventStore({ db: openSqlite(':memory:') });
  for (let i = 1; i <= 10; i++) await store.append(`thing-${i}`, [{ id: randomUUID(), type: i % 2 ? 'Odd' : 'Even', data: { i }, metadata: { schemaVersion: 1 } }], 'any');
  return store;
}

test('the events of the types asked for, after `after` and through `through`, in order, batch by batch', async (t) => {
  const store = await tenEvents();
  const seen: RecordedEvent[] = [];
  await readLogRange(store, { after: 2n, through: 7n, types: new Set(['Odd']) }, (events) => void seen.push(...events));
  t.deepEqual(seen.map((e) => e.position), [3n, 5n, 7n]);
  const none: RecordedEvent[] = [];
  await readLogRange(store, { after: 7n, through: 7n, types: new Set(['Odd']) }, (events) => void none.push(...events));
  t.deepEqual(none, []);
});

test('a reader that leaves ends the read; a failing batch rejects it', async (t) => {
  const store = await tenEvents();
  const leaving = new AbortController();
  leaving.abort();
  const seen: RecordedEvent[] = [];
  await readLogRange(store, { after: 0n, through: 10n, types: new Set(['Odd', 'Even']), signal: leaving.signal }, (events) => void seen.push(...events));
  t.deepEqual(seen, []);
  await t.throwsAsync(
    readLogRange(store, { after: 0n, through: 10n, types: new Set(['Even']) }, () => {
      throw new Error('client gone');
    }),
    { message: 'client gone' },
  );
});
