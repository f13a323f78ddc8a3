import test from 'ava';
import { createInOrderWindow } from '../../src/lib/in-order-window.ts';

function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { open, fail, work: () => done };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('positions are passed in log order, once every batch before them ended', async (t) => {
  const passed: bigint[] = [];
  const window = createInOrderWindow(10, async (upTo) => void passed.push(upTo));
  const [a, b, c] = [gate(), gate(), gate()];
  await window.add(1, 1n, a.work);
  await window.add(1, 2n, b.work);
  await window.add(0, 3n, async () => {});
  await window.add(1, 4n, c.work);
  b.open();
  c.open();
  await settle();
  t.deepEqual(passed, [], 'the first batch is in hand: nothing after it is passed');
  a.open();
  await window.drain();
  t.deepEqual(passed, [4n], 'then everything up to the last, in one save');
});

test('add waits while the limit is in hand', async (t) => {
  const window = createInOrderWindow(2, async () => {});
  const [a, b] = [gate(), gate()];
  await window.add(1, 1n, a.work);
  let added = false;
  const adding = window.add(1, 2n, b.work).then(() => (added = true));
  await settle();
  t.false(added);
  a.open();
  await adding;
  t.true(added);
  b.open();
  await window.drain();
});

test('a failed batch is never passed, and the next add and drain reject with its error', async (t) => {
  const passed: bigint[] = [];
  const window = createInOrderWindow(10, async (upTo) => void passed.push(upTo));
  const [a, b] = [gate(), gate()];
  await window.add(1, 1n, a.work);
  await window.add(1, 2n, b.work);
  b.open();
  a.fail(new Error('outage'));
  await settle();
  await t.throwsAsync(window.add(1, 3n, async () => {}), { message: 'outage' });
  await t.throwsAsync(window.drain(), { message: 'outage' });
  t.deepEqual(passed, []);
});
