import { readdirSync, readFileSync } from 'node:fs';
import test from 'ava';
import { idleCollection, type Gc } from '../../src/adapters/local/idle-collection.ts';
import { landingBundle } from '../../src/http/landing/bundle.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Issue 43 item 16: an idle server's memory in its first half minute.
test("start-up's garbage is collected soon after start, even while requests (readiness probes) keep coming", async (t) => {
  const calls: string[] = [];
  const gc: Gc = (options) => void calls.push(options?.type ?? 'full');
  const quiet = idleCollection(60_000, () => gc);
  quiet.touch();
  quiet.afterStart(20);
  const probes = setInterval(quiet.touch, 5);
  await sleep(120);
  clearInterval(probes);
  quiet.stop();
  // The quiet-time collection never came (60 s): the start-up one did, probes or not.
  t.deepEqual(calls.slice(0, 2), ['minor', 'major']);
});

/** Live esbuild service processes whose parent is this process (an ended one left unreaped holds no memory). */
function esbuildChildren(): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (/^Name:\s+esbuild$/m.test(status) && !/^State:\s+Z/m.test(status) && Number(/PPid:\s+(\d+)/.exec(status)?.[1]) === process.pid) count++;
    } catch {
      // the process ended while we looked
    }
  }
  return count;
}

test("the landing page's build leaves no esbuild service running for the server's life", async (t) => {
  if (process.platform !== 'linux') return t.pass('reads /proc');
  const before = esbuildChildren();
  landingBundle();
  // The service ends once the thread that started it is gone: give it a moment.
  for (let i = 0; i < 20 && esbuildChildren() > before; i++) await sleep(100);
  t.true(esbuildChildren() <= before, `esbuild services: ${before} before the build, ${esbuildChildren()} after`);
});
