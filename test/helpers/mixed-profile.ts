import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from './server.ts';

/**
 * A mixed-profile server (embedded store, Kafka bus) on the given broker, one at a time per
 * broker across test files. Every mixed-profile server publishes to the contract's topics and
 * joins the same `kbqa.*` consumer groups, so two at once (AVA runs files in parallel) would take
 * each other's events and leave their own documents unparsed. The lock is a file made with
 * O_EXCL, holding its owner's pid, so a test process that died leaves nothing that blocks.
 */
export async function startMixedProfileServer(brokers: string, env: Record<string, string> = {}, waitMs = 240_000): Promise<TestServer> {
  const release = await lockBroker(brokers, waitMs);
  try {
    const server = await startServer({ KAFKA_BROKERS: brokers, ...env });
    return {
      ...server,
      async close() {
        try {
          await server.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Holds the broker for one mixed-profile server at a time (also for a test that spawns one as a process). */
export async function lockBroker(brokers: string, waitMs = 240_000): Promise<() => void> {
  const path = join(tmpdir(), `kbqa-mixed-profile-${brokers.replace(/[^\w.-]/g, '_')}.lock`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (!ownerAlive(path)) rmSync(path, { force: true });
    else if (Date.now() > deadline) throw new Error(`another mixed-profile server held ${path} for ${waitMs} ms`);
    else await new Promise((r) => setTimeout(r, 200));
  }
}

function ownerAlive(path: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path, 'utf8'));
  } catch {
    return true; // removed meanwhile, or its owner is still writing its pid: try again
  }
  // No pid yet: its owner is between creating and writing it, unless that was long ago.
  if (!Number.isInteger(pid) || pid <= 0) {
    const made = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    return made === undefined || Date.now() - made < 5000;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
