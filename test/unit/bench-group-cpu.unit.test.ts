import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { groupCpuSeconds } from '../../bench/server-process.ts';

// A parent that starts a child burning 0.6 s of CPU (CPU time, not wall time: on a loaded machine
// a wall-clock loop gets less), says when the child has ended, then outlives it.
const PARENT = `
const c = require('node:child_process').spawn(process.execPath, ['-e', 'while (process.cpuUsage().user < 600000);'], { stdio: 'ignore' });
c.on('exit', () => { process.stdout.write('ended\\n'); setTimeout(() => {}, 5000); });`;

const linux = existsSync('/proc/self/stat');

(linux ? test : test.skip)('bench: a process group keeps the CPU time of a child that ended between two readings', async (t) => {
  const parent = spawn(process.execPath, ['-e', PARENT], { stdio: ['ignore', 'pipe', 'ignore'] });
  const ended = once(parent.stdout, 'data');
  try {
    await sleep(150);
    const before = groupCpuSeconds(parent.pid!);
    await ended;
    const after = groupCpuSeconds(parent.pid!);
    // The child burned 0.6 s, most of it after the first reading (150 ms in), and ended before the second.
    t.true(after - before >= 0.25, `${before} → ${after}`);
  } finally {
    parent.kill();
  }
});
