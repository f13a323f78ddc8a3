import test from 'ava';
import { SandboxError } from '../../src/lib/js-sandbox.ts';
import { createSandboxPool } from '../../src/lib/js-sandbox/pool.ts';

/** The sandbox's threads (issue 42, item 2): bounded, stopped from outside, and the caller's loop stays free. */
const call = (code: string, timeoutMs = 5000) => ({ code, inputs: {}, timeoutMs, maxOutputBytes: 100_000 });
const BUSY_300_MS = 'const t = Date.now(); while (Date.now() - t < 300) {} return 1';

test('calls run on at most `threads` threads; the rest wait their turn and all finish', async (t) => {
  const pool = createSandboxPool({ threads: 2 });
  t.teardown(() => pool.close());
  let most = 0;
  const watch = setInterval(() => (most = Math.max(most, pool.size())), 5);
  const results = await Promise.all(Array.from({ length: 5 }, () => pool.run(call(BUSY_300_MS))));
  clearInterval(watch);
  t.deepEqual(results, [1, 1, 1, 1, 1]);
  t.true(most <= 2, `${most} threads`);
});

test('the event loop goes on while a call loops: a timer fires on time', async (t) => {
  const pool = createSandboxPool({ threads: 1 });
  t.teardown(() => pool.close());
  await pool.run(call('return 1')); // The thread started and its engine compiled.
  const looping = pool.run(call('while (true) {}', 1500)).catch((error: unknown) => error);
  const asked = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const lateMs = performance.now() - asked - 20;
  t.true(lateMs < 700, `a 20 ms timer came ${Math.round(lateMs)} ms late (generous: the loop runs 1.5 s)`);
  const error = (await looping) as SandboxError;
  t.is(error.code, 'code_timeout');
});

test('an abort stops a running call at once and a queued one before it starts; the next call works', async (t) => {
  const pool = createSandboxPool({ threads: 1 });
  t.teardown(() => pool.close());
  const running = new AbortController();
  const queued = new AbortController();
  const first = pool.run(call('while (true) {}', 10_000), running.signal);
  const second = pool.run(call('return "never"'), queued.signal);
  queued.abort(new Error('not wanted'));
  await t.throwsAsync(second, { message: 'not wanted' });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const stopped = performance.now();
  running.abort(new Error('node timeout'));
  await t.throwsAsync(first, { message: 'node timeout' });
  t.true(performance.now() - stopped < 1000);
  t.is(await pool.run(call('return typeof process')), 'undefined');
});

test('a time limit is wall time: past it (and its grace) the call fails code_timeout, whatever the engine does', async (t) => {
  // No grace: the thread is stopped at the limit itself, from outside, if the engine has not stopped first.
  const pool = createSandboxPool({ threads: 1, graceMs: 0 });
  t.teardown(() => pool.close());
  await pool.run(call('return 1'));
  const started = performance.now();
  const error = await t.throwsAsync(pool.run(call('const all = []; for (;;) all.push({ n: all.length, s: "x" + all.length })', 400)), { instanceOf: SandboxError });
  t.true(['code_timeout', 'code_memory'].includes(error!.code), error!.code);
  t.true(performance.now() - started < 2000);
  t.is(await pool.run(call('return 2')), 2);
});
