import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRpcProcesses } from '../../src/adapters/local/rpc-processes.ts';
import { tempDir } from '../helpers/temp.ts';

const dir = tempDir('kbqa-rpc-');
test.after.always(() => dir.remove());

// A child that answers as query-process.mjs does: `wait` answers after its delay, so calls in
// flight together finish in their own order; `pid` says which process answered; `hang` never
// answers; `flags` gives its Node flags; `exit` ends the process; `fail` throws.
const SCRIPT = join(dir.path, 'child.mjs');
writeFileSync(
  SCRIPT,
  `const methods = {
    wait: (ms, value) => new Promise((r) => setTimeout(() => r(value), ms)),
    pid: () => process.pid,
    flags: () => process.execArgv,
    hang: () => new Promise(() => {}),
    exit: () => process.exit(3),
    fail: () => { throw new Error('no such knowledge base'); },
    bytes: (n) => new Float32Array(n).fill(0.5),
  };
  process.on('message', async ({ id, method, params }) => {
    try { process.send({ id, ok: true, value: await methods[method](...params) }); }
    catch (error) { process.send({ id, ok: false, message: error.message }); }
  });
  process.on('disconnect', () => process.exit(0));`,
);

test('one process takes many calls at once and answers each as it is done', async (t) => {
  const pool = createRpcProcesses({ script: SCRIPT, processes: 1, idleMs: 5_000 });
  try {
    const order: string[] = [];
    const calls = [300, 100, 200].map((ms) => pool.run<string>('wait', [ms, `after ${ms}`], { timeoutMs: 5_000 }).then((r) => (order.push(r.ok ? r.value : r.message), r)));
    t.is(pool.inFlight(), 3);
    await Promise.all(calls);
    // One call at a time would answer in the order sent: 300 first.
    t.deepEqual(order, ['after 100', 'after 200', 'after 300']);
    t.is(pool.inFlight(), 0);
    const typed = await pool.run<Float32Array>('bytes', [4], { timeoutMs: 5_000 });
    t.true(typed.ok && typed.value instanceof Float32Array, 'structured clone keeps typed arrays');
  } finally {
    await pool.close();
  }
});

test('calls spread over the processes allowed, the least busy first', async (t) => {
  const pool = createRpcProcesses({ script: SCRIPT, processes: 2, idleMs: 5_000 });
  try {
    // The first process is busy with a slow call: the next goes to a second process.
    const slow = pool.run('wait', [300, 'x'], { timeoutMs: 5_000 });
    const second = await pool.run<number>('pid', [], { timeoutMs: 5_000 });
    await slow;
    // Both idle now: the first takes the next call.
    const first = await pool.run<number>('pid', [], { timeoutMs: 5_000 });
    t.true(second.ok && first.ok);
    t.not(second.ok && second.value, first.ok && first.value);
  } finally {
    await pool.close();
  }
});

test('an error thrown in the process, a deadline passed and a process that dies each fail only their calls', async (t) => {
  const pool = createRpcProcesses({ script: SCRIPT, processes: 1, idleMs: 5_000 });
  try {
    const failed = await pool.run('fail', [], { timeoutMs: 5_000 });
    t.like(failed, { ok: false, message: 'no such knowledge base' });
    const hung = await pool.run('hang', [], { timeoutMs: 300 });
    t.like(hung, { ok: false, failure: 'timeout' });
    const waiting = pool.run('wait', [2_000, 'never'], { timeoutMs: 5_000 });
    const died = await pool.run('exit', [], { timeoutMs: 5_000 });
    t.like(died, { ok: false, failure: 'crashed' });
    t.like(await waiting, { ok: false, failure: 'crashed' }, 'a call in flight in a process that died');
    // A new process takes the next call.
    t.like(await pool.run('wait', [1, 'again'], { timeoutMs: 5_000 }), { ok: true, value: 'again' });
  } finally {
    await pool.close();
  }
});

test('a process without calls for the idle time ends, and the next call starts another', async (t) => {
  const pool = createRpcProcesses({ script: SCRIPT, processes: 1, idleMs: 200 });
  try {
    const first = await pool.run<number>('pid', [], { timeoutMs: 5_000 });
    await new Promise((r) => setTimeout(r, 600));
    const second = await pool.run<number>('pid', [], { timeoutMs: 5_000 });
    t.true(first.ok && second.ok);
    t.not(first.ok && first.value, second.ok && second.value);
  } finally {
    await pool.close();
  }
});

test('each process starts with the Node flags it is given', async (t) => {
  const pool = createRpcProcesses({ script: SCRIPT, processes: 1, idleMs: 5_000, execArgv: ['--max-semi-space-size=48'] });
  try {
    const flags = await pool.run<string[]>('flags', [], { timeoutMs: 5_000 });
    t.deepEqual(flags.ok && flags.value, ['--max-semi-space-size=48']);
  } finally {
    await pool.close();
  }
});
