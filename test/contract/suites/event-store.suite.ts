import type { ExecutionContext, TestFn } from 'ava';
import { randomUUID } from 'node:crypto';
import { ConcurrencyError, type EventStore, type NewEvent, type RecordedEvent } from '../../../src/ports/event-store.ts';
import { eventually } from '../../helpers/temp.ts';

export type EventStoreFixture = { store: EventStore; cleanup(): Promise<void> };

const ev = (type: string, data: Record<string, unknown> = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: { schemaVersion: 1, correlationId: 'c-1' },
});

/** The store takes any event type (keeping the log to the catalog is the command shell's job); these cases use letters. */
const typeOf = (event: RecordedEvent): string => event.type;

/** The behaviour every EventStore adapter owes; run against each adapter with its own factory. */
export function testEventStore(test: TestFn, name: string, factory: () => Promise<EventStoreFixture>) {
  const withStore = (title: string, body: (t: ExecutionContext, store: EventStore, stream: (s: string) => string) => Promise<void>) =>
    test(`${name} › ${title}`, async (t) => {
      const { store, cleanup } = await factory();
      // Each case gets its own stream names, so adapters backed by a shared server need no reset.
      const prefix = randomUUID().slice(0, 8);
      try {
        await body(t, store, (s) => `${s}_${prefix}`);
      } finally {
        await cleanup();
      }
    });

  withStore('appends to a new stream and reads it back in order, data and metadata intact', async (t, store, s) => {
    const stream = s('order-1');
    const first = await store.append(stream, [ev('A', { n: 1, nested: { ok: true } }), ev('B', { n: 2 })], 'no_stream');
    t.is(first.nextRevision, 1);
    const read = await store.readStream(stream);
    t.deepEqual(read.map((e) => [e.type, e.revision, e.data]), [['A', 0, { n: 1, nested: { ok: true } }], ['B', 1, { n: 2 }]]);
    t.deepEqual(read[0]!.metadata, { schemaVersion: 1, correlationId: 'c-1' });
    t.deepEqual(read[0]!.streamId, stream);
    t.true(read[1]!.position > read[0]!.position, 'positions must increase');
    t.is(read[1]!.position, first.lastPosition, 'lastPosition is the position of the last event');
  });

  withStore('a stream that does not exist reads as empty', async (t, store, s) => {
    t.deepEqual(await store.readStream(s('nothing')), []);
  });

  withStore('expected revision: exact, no_stream, stream_exists, any', async (t, store, s) => {
    const stream = s('exp');
    await rejectsConcurrency(store.append(stream, [ev('A')], 'stream_exists'));
    await rejectsConcurrency(store.append(stream, [ev('A')], 0));
    await store.append(stream, [ev('A')], 'no_stream');
    await rejectsConcurrency(store.append(stream, [ev('B')], 'no_stream'));
    await rejectsConcurrency(store.append(stream, [ev('B')], 1));
    await store.append(stream, [ev('B')], 0);
    await store.append(stream, [ev('C')], 'stream_exists');
    await store.append(stream, [ev('D')], 'any');
    t.deepEqual((await store.readStream(stream)).map((e) => e.type), ['A', 'B', 'C', 'D']);
  });

  withStore('a rejected append writes none of its events', async (t, store, s) => {
    const stream = s('atomic');
    await store.append(stream, [ev('A')], 'no_stream');
    await rejectsConcurrency(store.append(stream, [ev('X'), ev('Y')], 5));
    t.deepEqual((await store.readStream(stream)).map((e) => e.type), ['A']);
  });

  withStore('of two writers with the same expected revision exactly one wins', async (t, store, s) => {
    const stream = s('race');
    await store.append(stream, [ev('A')], 'no_stream');
    const results = await Promise.allSettled([store.append(stream, [ev('B1')], 0), store.append(stream, [ev('B2')], 0)]);
    t.deepEqual(results.filter((r) => r.status === 'fulfilled').length, 1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    t.true(rejected.reason instanceof ConcurrencyError, 'the loser gets ConcurrencyError');
    t.deepEqual((await store.readStream(stream)).length, 2);
  });

  withStore('the global log orders events across streams and pages from a position', async (t, store, s) => {
    const start = await store.headPosition();
    await store.append(s('g1'), [ev('A')], 'no_stream');
    await store.append(s('g2'), [ev('B'), ev('C')], 'no_stream');
    await store.append(s('g1'), [ev('D')], 0);
    const mine = (await store.readAll({ from: start, limit: 1000 })).filter((e) => e.streamId.endsWith(s('').slice(1)));
    t.deepEqual(mine.map((e) => e.type), ['A', 'B', 'C', 'D']);
    // From B's position on: C first, and D within the page; on a shared server other writers may
    // append between C and D, so only this case's events are compared.
    const page = await store.readAll({ from: mine[1]!.position, limit: 1000 });
    t.is(typeOf(page[0]!), 'C');
    t.deepEqual(page.filter((e) => e.streamId.endsWith(s('').slice(1))).map((e) => e.type), ['C', 'D']);
    t.is((await store.readAll({ from: mine[1]!.position, limit: 1 })).length, 1, 'limit bounds the page');
    t.false((await store.headPosition()) < mine[3]!.position, 'head must be at or past the last append');
  });

  withStore('subscription catches up from a position, then stays live', async (t, store, s) => {
    const start = await store.headPosition();
    await store.append(s('sub'), [ev('A'), ev('B')], 'no_stream');
    const seen: RecordedEvent[] = [];
    const sub = store.subscribeToAll(start, async (batch) => void seen.push(...batch));
    try {
      await eventually(() => seen.length >= 2);
      await store.append(s('sub'), [ev('C')], 1);
      await eventually(() => seen.some((e) => typeOf(e) === 'C'));
      const mine = seen.filter((e) => e.streamId === s('sub')).map((e) => e.type);
      t.deepEqual(mine, ['A', 'B', 'C']);
    } finally {
      await sub.stop();
    }
  });

  withStore('a subscription starting at the head sees only later events', async (t, store, s) => {
    await store.append(s('old'), [ev('OLD')], 'no_stream');
    const seen: string[] = [];
    const sub = store.subscribeToAll(await store.headPosition(), async (batch) => void seen.push(...batch.map((e) => e.type)));
    try {
      await store.append(s('new'), [ev('NEW')], 'no_stream');
      await eventually(() => seen.includes('NEW'));
      t.deepEqual(seen.includes('OLD'), false);
    } finally {
      await sub.stop();
    }
  });

  withStore('a type-filtered subscription delivers only those types and reads past the rest', async (t, store, s) => {
    const from = await store.headPosition();
    const seen: string[] = [];
    let upTo = from;
    const sub = store.subscribeToAll(
      from,
      async (batch, through) => {
        seen.push(...batch.map((e) => e.type));
        upTo = through;
      },
      { eventTypes: new Set(['Wanted']) },
    );
    try {
      await store.append(s('f'), [ev('Other'), ev('Wanted'), ev('Other')], 'no_stream');
      const last = await store.headPosition();
      await eventually(() => upTo >= last);
      t.deepEqual(seen, ['Wanted']);
    } finally {
      await sub.stop();
    }
  });

  withStore('stop() waits for the running handler and delivers nothing after', async (t, store, s) => {
    const from = await store.headPosition();
    let running = false;
    let calls = 0;
    const sub = store.subscribeToAll(from, async () => {
      running = true;
      calls++;
      await new Promise((r) => setTimeout(r, 30));
      running = false;
    });
    await store.append(s('stop'), [ev('A')], 'no_stream');
    await eventually(() => calls > 0);
    await sub.stop();
    t.deepEqual(running, false);
    const after = calls;
    await store.append(s('stop'), [ev('B')], 0);
    await new Promise((r) => setTimeout(r, 50));
    t.deepEqual(calls, after);
  });
}

async function rejectsConcurrency(p: Promise<unknown>) {
  try {
    await p;
  } catch (error) {
    if (error instanceof ConcurrencyError) return;
    throw error;
  }
  throw new Error('expected a ConcurrencyError');
}
