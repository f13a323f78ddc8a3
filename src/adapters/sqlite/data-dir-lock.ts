import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * One serving (or replaying) process per data directory. The lock is an exclusive SQLite
 * transaction on a side file: the OS drops it the moment its holder dies, kill -9 included,
 * so a crash never leaves a stale lock behind.
 */
export function lockDataDir(dataDir: string, purpose: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const holderFile = join(dataDir, 'kbqa.lock.json');
  const db = new Database(join(dataDir, 'kbqa.lock'), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new Error(`${dataDir} is in use by ${describeHolder(holderFile)}; stop it first`);
  }
  writeFileSync(holderFile, JSON.stringify({ pid: process.pid, purpose }));
  return () => {
    if (!db.open) return;
    db.exec('ROLLBACK');
    db.close();
  };
}

function describeHolder(path: string): string {
  try {
    const { pid, purpose } = JSON.parse(readFileSync(path, 'utf8')) as { pid: number; purpose: string };
    return `process ${pid} (${purpose})`;
  } catch {
    return 'another kbqa process';
  }
}
