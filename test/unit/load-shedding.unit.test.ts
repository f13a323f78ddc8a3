import test from 'ava';
import { createLoadShedder, type LoadLimits } from '../../src/http/load-shedding.ts';

const limits = (over: Partial<LoadLimits> = {}): LoadLimits => ({
  query: { concurrency: 10, queue: 10 },
  run: { concurrency: 1, queue: 0 },
  landing: { concurrency: 3, queue: 1, perPartition: 2 },
  queueWaitMs: 60_000,
  startsPerTurn: 1,
  ...over,
});
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const open = () => new AbortController().signal;

test('requests start on later turns of the event loop, at most startsPerTurn a turn, first come first served', async (t) => {
  const shedder = createLoadShedder(limits({ startsPerTurn: 2 }));
  const started: number[] = [];
  const slots = [0, 1, 2, 3, 4].map((i) => shedder.acquire('query', open()).then((release) => (started.push(i), release)));
  t.deepEqual(started, [], 'nothing starts within the callback that asked');
  const counts: number[] = [];
  for (let i = 0; i < 10; i++) {
    await turn();
    counts.push(started.length);
  }
  t.deepEqual(started, [0, 1, 2, 3, 4]);
  counts.reduce((before, now) => (t.true(now - before <= 2, `${counts}`), now), 0);
  for (const release of await Promise.all(slots)) release();
  t.like(shedder.stats().query, { inFlight: 0, queued: 0 });
});

test('in flight and queued up to the limits, then 503 server_overloaded with retry-after; a released slot goes to the next in line', async (t) => {
  const shedder = createLoadShedder(limits({ query: { concurrency: 1, queue: 1 }, queueWaitMs: 1500 }));
  const first = await shedder.acquire('query', open());
  const second = shedder.acquire('query', open());
  const refused = await shedder.acquire('query', open()).catch((e: unknown) => e);
  t.like(refused, { status: 503, type: 'server_error', code: 'server_overloaded', headers: { 'retry-after': '2' } });
  t.throws(() => shedder.ensureRoom('query'), { message: /at capacity/ });
  t.like(shedder.stats().query, { inFlight: 1, queued: 1, shed: { queue_full: 2, queue_timeout: 0, client_gone: 0 } });
  t.is(shedder.demand('query'), 2, 'demand: running and waiting');
  t.is(shedder.demand('run'), 0);
  first();
  first(); // twice does nothing
  (await second)();
  t.like(shedder.stats().query, { inFlight: 0, queued: 0 });
  t.like(shedder.stats().run, { inFlight: 0, queued: 0, shed: { queue_full: 0 } });
});

test('a waiting request whose client leaves, or that waits too long, never starts and gives its place up', async (t) => {
  const shedder = createLoadShedder(limits({ query: { concurrency: 1, queue: 2 }, queueWaitMs: 50 }));
  const holder = await shedder.acquire('query', open());
  const leaving = new AbortController();
  const gone = shedder.acquire('query', leaving.signal);
  const late = shedder.acquire('query', open());
  leaving.abort();
  t.like(await gone.catch((e: unknown) => e), { status: 499, code: 'client_closed_request' });
  t.like(await late.catch((e: unknown) => e), { status: 503, code: 'server_overloaded' });
  t.like(shedder.stats().query, { inFlight: 1, queued: 0, shed: { client_gone: 1, queue_timeout: 1 } });
  holder();
  // The ones that gave up pass the slot on at once: the next request gets it.
  const next = await shedder.acquire('query', open());
  t.like(shedder.stats().query, { inFlight: 1, queued: 0 });
  next();
});

test('concurrency 0 means no limit: every request starts at once', async (t) => {
  const shedder = createLoadShedder(limits({ query: { concurrency: 0, queue: 0 } }));
  const releases = await Promise.all(Array.from({ length: 50 }, () => shedder.acquire('query', open())));
  t.is(shedder.stats().query.inFlight, 50);
  for (const release of releases) release();
  t.is(shedder.stats().query.inFlight, 0);
});

test('a request that gives up at any point of its wait never keeps a slot', async (t) => {
  const shedder = createLoadShedder(limits({ query: { concurrency: 1, queue: 5 }, queueWaitMs: 2_000 }));
  // Leaving after 0, 1, 2 … microtasks: in p-limit's queue, in its slot waiting for a turn, or just started.
  for (let i = 0; i < 24; i++) {
    const leaving = new AbortController();
    const slot = shedder.acquire('query', leaving.signal);
    for (let k = 0; k < i % 8; k++) await Promise.resolve();
    leaving.abort();
    const outcome = await slot.catch(() => null);
    if (outcome) outcome();
  }
  const release = await shedder.acquire('query', open());
  t.like(shedder.stats().query, { inFlight: 1, queued: 0 });
  release();
});

test('the landing class bounds each partition (agent) within it: one agent’s flood is turned away while others and the query class keep room', async (t) => {
  const shedder = createLoadShedder(limits({ query: { concurrency: 1, queue: 0 } }));
  const a1 = await shedder.acquire('landing', open(), 'agent-a');
  const a2 = shedder.acquire('landing', open(), 'agent-a');
  const refused = await shedder.acquire('landing', open(), 'agent-a').catch((e: unknown) => e);
  t.like(refused, { status: 503, code: 'server_overloaded' });
  t.throws(() => shedder.ensureRoom('landing', 'agent-a'), { message: /at capacity/ });
  const b = await shedder.acquire('landing', open(), 'agent-b');
  t.like(shedder.stats().landing, { shed: { partition_full: 2 } });
  const query = await shedder.acquire('query', open());
  t.is(shedder.demand('query'), 1, 'the query class is untouched');
  a1();
  a1(); // twice does nothing
  const a3 = await shedder.acquire('landing', open(), 'agent-a');
  for (const release of [await a2, a3, b, query]) release();
  t.like(shedder.stats().landing, { inFlight: 0, queued: 0 });
  t.is(shedder.demand('landing'), 0);
});
