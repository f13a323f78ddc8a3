import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/**
 * The variables that move a port onto a shared engine. CI sets KAFKA_BROKERS for the Kafka tests;
 * a spawned service inherits it only when its test asks, or every embedded-profile process would
 * join the same topics and consumer groups and take each other's events.
 */
const ENGINES = ['EVENTSTORE_URL', 'KAFKA_BROKERS', 'MONGODB_URL', 'PINECONE_API_KEY', 'PINECONE_INDEX'];
const inherited = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !ENGINES.includes(name)));

/** Runs a command in its own process group (npm start forks node: a kill must reach both). */
export function run(command: string, args: string[], env: Record<string, string>): Started {
  const child = spawn(command, args, { cwd: repoRoot, env: { ...inherited(), ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function waitForOutput(started: Started, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = started.output().match(pattern);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; output so far:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function killGroup(started: Started, signal: NodeJS.Signals) {
  process.kill(-started.child.pid!, signal);
}

/** This process's children whose command line names `script` (Linux: read from /proc). */
export function childrenRunning(script: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
        return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(script);
      } catch {
        return false; // it ended while we looked
      }
    })
    .map(Number);
}
