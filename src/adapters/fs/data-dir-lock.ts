import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One serving (or replaying) process per data directory. A lock left by a process that died
 * (kill -9) names a pid that no longer runs, and is taken over.
 */
export function lockDataDir(dataDir: string, purpose: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'kbqa.lock');
  const holder = readHolder(path);
  if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
    throw new Error(`${dataDir} is in use by process ${holder.pid} (${holder.purpose}); stop it first`);
  }
  writeFileSync(path, JSON.stringify({ pid: process.pid, purpose }));
  return () => {
    if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
  };
}

function readHolder(path: string): { pid: number; purpose: string } | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
