import test from 'ava';
import { createRunScheduler, RunsStopped } from '../../consumers/runner/scheduler.ts';

/** A task that runs until released, recording when it started. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { release, task: () => (log.push(name), released) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('runs go at once up to the process limit, and a workspace no further than its own', async (t) => {
  const scheduler = createRunScheduler({ concurrency: 3, perWorkspace: 2 });
  const started: string[] = [];
  const gates = ['a1', 'a2', 'a3', 'b1', 'b2'].map((name) => ({ name, ...gate(started, name) }));
  const done = gates.map((g) => scheduler.schedule(g.name[0]!, g.task));
  await settle();
  t.deepEqual(started, ['a1', 'a2', 'b1'], 'a3 waits for its workspace, b2 for the process');
  t.deepEqual(scheduler.counts(), { running: 3, waiting: 2 });
  gates[0]!.release();
  await settle();
  // a was served before b last: its third run goes before b's second.
  t.deepEqual(started, ['a1', 'a2', 'b1', 'a3']);
  for (const g of gates) g.release();
  await Promise.all(done);
  t.deepEqual(started, ['a1', 'a2', 'b1', 'a3', 'b2']);
  t.deepEqual(scheduler.counts(), { running: 0, waiting: 0 });
});

test("a workspace's flood holds back another workspace's run by one slot at most", async (t) => {
  // The flood may take every slot (perWorkspace = concurrency): the other run takes the first that frees.
  const scheduler = createRunScheduler({ concurrency: 2, perWorkspace: 2 });
  const started: string[] = [];
  const flood = Array.from({ length: 20 }, (_, i) => ({ name: `a${i + 1}`, ...gate(started, `a${i + 1}`) }));
  const done = flood.map((g) => scheduler.schedule('noisy', g.task));
  await settle();
  const other = gate(started, 'b1');
  const otherDone = scheduler.schedule('quiet', other.task);
  await settle();
  t.deepEqual(started, ['a1', 'a2']);
  flood[0]!.release();
  await settle();
  t.deepEqual(started, ['a1', 'a2', 'b1'], "the quiet workspace's run takes the slot that freed, before the flood's third");
  other.release();
  for (const g of flood) g.release();
  await Promise.all([...done, otherDone]);
  t.is(started.length, 21);
});

test('workspaces with runs waiting take turns', async (t) => {
  const scheduler = createRunScheduler({ concurrency: 1, perWorkspace: 1 });
  const started: string[] = [];
  const first = gate(started, 'x0');
  const blocker = scheduler.schedule('x', first.task);
  const rest = ['a1', 'a2', 'a3', 'b1', 'b2', 'c1'].map((name) => scheduler.schedule(name[0]!, async () => void started.push(name)));
  first.release();
  await Promise.all([blocker, ...rest]);
  t.deepEqual(started, ['x0', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
});

test('a task that throws frees its slot and rejects its own promise only', async (t) => {
  const scheduler = createRunScheduler({ concurrency: 1, perWorkspace: 1 });
  const failing = scheduler.schedule('a', async () => {
    throw new Error('boom');
  });
  const next = scheduler.schedule('a', async () => 'ran');
  await t.throwsAsync(failing, { message: 'boom' });
  t.is(await next, 'ran');
});

test('dropping the waiting runs rejects them; the running ones end as they would, and later runs still go', async (t) => {
  const scheduler = createRunScheduler({ concurrency: 1, perWorkspace: 1 });
  const started: string[] = [];
  const first = gate(started, 'a1');
  const running = scheduler.schedule('a', first.task);
  const waiting = scheduler.schedule('b', async () => void started.push('b1'));
  scheduler.dropWaiting();
  await t.throwsAsync(waiting, { instanceOf: RunsStopped });
  first.release();
  await running;
  t.deepEqual(started, ['a1']);
  t.deepEqual(scheduler.counts(), { running: 0, waiting: 0 });
  await scheduler.schedule('b', async () => void started.push('b2'));
  t.deepEqual(started, ['a1', 'b2']);
});
