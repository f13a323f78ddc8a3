import test from 'ava';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The pool runs in a child of its own: what its processes print reaches that child's streams,
// which this test reads whole (a pool inside ava would write to ava's own stderr).
const script = fileURLToPath(new URL('../helpers/heap-eater-worker.mjs', import.meta.url));
const pool = fileURLToPath(new URL('../../src/adapters/local/process-pool.ts', import.meta.url));
const driver = (method: string) => `
  import { createProcessPool } from ${JSON.stringify(pool)};
  const pool = createProcessPool({ script: ${JSON.stringify(script)}, processes: 1, maxMemoryMb: 16, idleMs: 100 });
  const result = await pool.run(${JSON.stringify(method)}, [], { timeoutMs: 30_000 });
  await pool.close();
  console.log(JSON.stringify({ ok: result.ok, failure: result.failure }));`;

function runDriver(method: string) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', driver(method)], { encoding: 'utf8', timeout: 60_000 });
  return { stdout: child.stdout, stderr: child.stderr, result: JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { ok: boolean; failure?: string } };
}

test('a pool process that runs out of heap fails its task as out_of_memory without printing V8’s native report', (t) => {
  const { stderr, result } = runDriver('eat');
  t.deepEqual(result, { ok: false, failure: 'out_of_memory' });
  t.notRegex(stderr, /FATAL ERROR|Native stack trace|Last few GCs/);
});

test('what a pool process prints still reaches the streams', (t) => {
  const { stdout, stderr, result } = runDriver('speak');
  t.true(result.ok);
  t.regex(stdout, /said on stdout/);
  t.regex(stderr, /said on stderr/);
});
