import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { groupCpuSeconds } from '../../bench/server-process.ts';

// A parent that starts a child burning CPU for a while, then outlives it.
const PARENT = `
const c = require('node:child_process').spawn(process.execPath, ['-e', 'const t = Date.now(); while (Date.now() - t < 600);'], { stdio: 'ignore' });
c.on('exit', () => setTimeout(() => {}, 1500));`;

const linux = existsSync('/proc/self/stat');

(linux ? test : test.skip)('bench: a process group keeps the CPU time of a child that ended between two readings', async (t) => {
  const parent = spawn(process.execPath, ['-e', PARENT], { stdio: 'ignore' });
  try {
    await sleep(150);
    const before = groupCpuSeconds(parent.pid!);
    await sleep(1200);
    const after = groupCpuSeconds(parent.pid!);
    // The child burned ~0.6 s, most of it after the first reading, and ended before the second.
    t.true(after - before >= 0.25, `${before} → ${after}`);
  } finally {
    parent.kill();
  }
});
