import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { encoderFor } from '../../src/adapters/sqlite/vector-codes.ts';
import { createMirror } from '../../src/adapters/sqlite/vector-mirror.ts';
import { createScanSplitter, type ScanSplitter } from '../../src/adapters/sqlite/vector-scan-split.ts';
import { seededVectors } from '../helpers/vectors.ts';

const DIMS = 256;
// 2,560 blocks of 16: past the size from which a scan is split.
const VECTORS = 40_960;
const { randomVector } = seededVectors(5);
const centres = Array.from({ length: 64 }, () => randomVector(DIMS));
const near = (c: Float32Array) => {
  const noise = randomVector(DIMS);
  return c.map((x, i) => x + 0.8 * noise[i]!);
};
const records = Array.from({ length: VECTORS }, (_, i) => encoderFor(DIMS).encode(near(centres[i % centres.length]!)));
const queries = Array.from({ length: 20 }, (_, i) => near(centres[(i * 7) % centres.length]!));

/** The splitter, with a count of the scans it split. */
function counted(splitter: ScanSplitter) {
  let split = 0;
  return {
    splitter: { ...splitter, scan: (...args: Parameters<ScanSplitter['scan']>) => splitter.scan(...args) && ++split > 0 },
    split: () => split,
  };
}

function mirrorOf(options: Parameters<typeof createMirror>[1] = {}) {
  const mirror = createMirror(DIMS, options);
  mirror.reserve(VECTORS);
  records.forEach((record, i) => mirror.put(`c${i}`, `d${i >> 8}`, record));
  return mirror;
}

/** Searches until the helper thread has started and taken a scan (the first calls find it starting). */
async function untilSplit(search: () => unknown, split: () => number) {
  for (let i = 0; i < 200 && split() === 0; i++) {
    search();
    await sleep(10);
  }
}

test('a scan split with the helper thread gives every search exactly what one thread gives', async (t) => {
  // No backing off when the helper is late (other tests share the machine): every scan is split.
  const splitter = createScanSplitter({ backOffMs: 0 });
  try {
    const spy = counted(splitter);
    const alone = mirrorOf();
    const shared = mirrorOf({ splitter: spy.splitter });
    await untilSplit(() => shared.search(queries[0]!, 10), spy.split);
    const before = spy.split();
    t.true(before > 0, 'the helper took a scan');
    for (const q of queries) t.deepEqual(shared.search(q, 50), alone.search(q, 50));
    t.is(spy.split(), before + queries.length, 'every search was split');
  } finally {
    await splitter.close();
  }
});

test('a busy process, or a small scan, scans alone; after close the helper starts again', async (t) => {
  let available = false;
  const splitter = createScanSplitter({ available: () => available, backOffMs: 0 });
  try {
    const spy = counted(splitter);
    const mirror = mirrorOf({ splitter: spy.splitter });
    const expected = mirrorOf().search(queries[1]!, 20);
    t.deepEqual(mirror.search(queries[1]!, 20), expected);
    t.is(spy.split(), 0, 'not split while busy');

    const small = createMirror(DIMS, { splitter: spy.splitter });
    records.slice(0, 5000).forEach((record, i) => small.put(`s${i}`, 'd', record));
    available = true;
    small.search(queries[1]!, 20);
    await sleep(50);
    small.search(queries[1]!, 20);
    t.is(spy.split(), 0, 'a scan of 5,000 vectors is not split');

    await untilSplit(() => mirror.search(queries[1]!, 20), spy.split);
    t.true(spy.split() > 0);
    await splitter.close();
    const after = spy.split();
    await untilSplit(() => mirror.search(queries[2]!, 20), () => spy.split() - after);
    t.true(spy.split() > after, 'a new helper took over');
    t.deepEqual(mirror.search(queries[1]!, 20), expected);
  } finally {
    await splitter.close();
  }
});
