import test from 'ava';
import { createJsSandbox, type JsSandbox, SandboxError } from '../../src/lib/js-sandbox.ts';

// Serial: the engine holds the thread while a call runs, so timings of concurrent tests would mix.
let sandbox: JsSandbox;
test.before(async () => {
  sandbox = await createJsSandbox();
});
test.after.always(() => sandbox?.close());

const LIMITS = { timeoutMs: 1000, maxOutputBytes: 100_000 };
const run = (code: string, inputs: Record<string, unknown> = {}, limits: Partial<typeof LIMITS> = {}) => sandbox.run({ code, inputs, ...LIMITS, ...limits });

async function fails(t: import('ava').ExecutionContext, code: string, expected: SandboxError['code'], message?: RegExp, limits: Partial<typeof LIMITS> = {}) {
  const error = await t.throwsAsync(run(code, {}, limits), { instanceOf: SandboxError });
  t.is(error?.code, expected, error?.message);
  if (message) t.regex(error!.message, message);
}

test.serial('a function body receives inputs and returns; or main(inputs) is called; async main is awaited', async (t) => {
  t.is(await run('return inputs.a + inputs.b', { a: 2, b: 3 }), 5);
  t.deepEqual(await run('function main(inputs) { return { words: inputs.text.split(" ") } }', { text: 'a b' }), { words: ['a', 'b'] });
  t.is(await run('async function main(i) { return await Promise.resolve(i.n * 2) }', { n: 21 }), 42);
  t.is(await run('return null'), null);
});

test.serial('the host is out of reach: no process, require, import, Function-constructor escape, timers or fetch', async (t) => {
  t.is(await run('return typeof process'), 'undefined');
  t.deepEqual(await run('return [typeof require, typeof fetch, typeof setTimeout, typeof module, typeof Deno, typeof Bun]'), Array(6).fill('undefined'));
  await fails(t, 'return require("fs")', 'code_error', /require/);
  await fails(t, "return globalThis.constructor.constructor('return process')()", 'code_error', /process/);
  await fails(t, "return (function(){}).constructor('return this.process.env')()", 'code_error');
  await fails(t, 'return import("node:fs").then((fs) => fs.readFileSync("/etc/passwd", "utf8"))', 'code_error');
  await fails(t, 'return std.loadFile("/etc/passwd")', 'code_error', /std/);
});

test.serial('prototype pollution stays in the sandbox, and no call sees what an earlier one left', async (t) => {
  await run('Object.prototype.polluted = "yes"; Array.prototype.push = null; globalThis.leak = 1; return 1');
  t.is(({} as Record<string, unknown>).polluted, undefined);
  t.is(typeof [].push, 'function');
  t.deepEqual(await run('return [({}).polluted ?? null, typeof globalThis.leak]'), [null, 'undefined']);
  // Redefining JSON cannot change how the result is checked.
  await fails(t, 'JSON.stringify = () => "1"; return () => 1', 'code_result', /function/);
});

test.serial('an endless loop fails on its time limit, and the next call works', async (t) => {
  const started = Date.now();
  const error = await t.throwsAsync(run('while (true) {}', {}, { timeoutMs: 200 }), { instanceOf: SandboxError });
  t.is(error?.code, 'code_timeout');
  t.true(Date.now() - started < 2000);
  t.is(await run('return 1'), 1);
});

test.serial('a 1 GB allocation, a heap of small objects and endless recursion fail on memory; the next call works', async (t) => {
  // A generous time limit, so that a slow machine still meets the memory limit first.
  const slow = { timeoutMs: 10_000 };
  await fails(t, 'return new Array(1e9).fill(0)', 'code_memory', undefined, slow);
  await fails(t, 'const all = []; for (;;) all.push({ n: all.length, s: "x" + all.length })', 'code_memory', undefined, slow);
  await fails(t, 'function f() { return f() + 1 } return f()', 'code_memory', undefined, slow);
  t.is(await run('return "still here"'), 'still here');
});

test.serial('a result larger than the cap fails; so does one that is not JSON', async (t) => {
  await fails(t, 'return "x".repeat(200000)', 'code_output');
  await fails(t, 'return "x".repeat(10 * 1024 * 1024)', 'code_output');
  await fails(t, 'return undefined', 'code_result', /undefined/);
  await fails(t, 'return () => 1', 'code_result', /function/);
  await fails(t, 'return { f() {} }', 'code_result', /"f"/);
  await fails(t, 'return Symbol("s")', 'code_result', /symbol/);
  await fails(t, 'const a = {}; a.self = a; return a', 'code_result', /circular/);
  await fails(t, 'return 10n', 'code_result');
  await fails(t, 'function main() {}', 'code_result', /undefined/);
});

test.serial('a throw fails with its message; a rejected promise too', async (t) => {
  await fails(t, 'throw new TypeError("bad input")', 'code_error', /^TypeError: bad input$/);
  await fails(t, 'async function main() { throw new Error("later") }', 'code_error', /later/);
  await fails(t, 'return {', 'code_error', /SyntaxError/);
});

test.serial('a small function costs well under 5 ms a call', async (t) => {
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    await run('return inputs.items.map((x) => x * 2)', { items: [1, 2, 3] });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  t.true(times[100]! < 5, `p50 ${times[100]} ms`);
});
