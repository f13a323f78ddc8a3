import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** Progress goes to stderr: stdout carries only the final JSON object. */
export function log(message: string) {
  process.stderr.write(`[bench] ${message}\n`);
}

/** A fresh directory under the OS temp dir, removed when `fn` settles (whatever the outcome). */
export async function withTempDir<T>(label: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(os.tmpdir(), `kbqa-bench-${label}-`));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** p50/p99/max of a list of durations in ms, rounded for the report. */
export function latencySummary(durationsMs: number[]) {
  const sorted = [...durationsMs].sort((a, b) => a - b);
  return { p50_ms: round(percentile(sorted, 50), 3), p99_ms: round(percentile(sorted, 99), 3), max_ms: round(sorted.at(-1) ?? Number.NaN, 3) };
}

export function round(value: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Times `fn` with the monotonic clock; returns its result and the elapsed milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - start };
}

/** Small deterministic PRNG (mulberry32), so every run builds the same workload. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export const loadAvg = () => round(os.loadavg()[0] ?? 0, 2);

export function machineInfo() {
  const cpus = os.cpus();
  const db = new Database(':memory:');
  const sqlite = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  db.close();
  return {
    cpu_model: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memory_gb: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    sqlite,
    load_avg_1m: loadAvg(),
  };
}
