import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** What the owner writes beside its lock: who it is, and the bus its relay publishes to (a worker must join the same). */
export type DataDirHolder = { pid: number; purpose: string; kafka?: { brokers: string[]; namespace: string } | null };

type LockOptions = {
  /** Also refuse while parse workers use the directory (replay, reindex: they must run beside nothing that writes). */
  alone?: boolean;
  kafka?: DataDirHolder['kafka'];
};

/**
 * One owner (a serving, replaying or reindexing process) per data directory. The lock is an
 * exclusive SQLite transaction on a side file: the OS drops it the moment its holder dies,
 * kill -9 included, so a crash never leaves a stale lock behind. Parse workers of the mixed
 * profile hold a shared lock on another file (joinDataDir), which the serving owner tolerates
 * and the maintenance commands (`alone`) do not.
 */
export function lockDataDir(dataDir: string, purpose: string, { alone = false, kafka = null }: LockOptions = {}): () => void {
  mkdirSync(dataDir, { recursive: true });
  const holderFile = join(dataDir, 'kbqa.lock.json');
  const db = new Database(join(dataDir, 'kbqa.lock'), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new Error(`${dataDir} is in use by ${describeHolder(readHolder(holderFile))}; stop it first`);
  }
  const release = () => {
    if (!db.open) return;
    db.exec('ROLLBACK');
    db.close();
  };
  if (alone) {
    const workers = new Database(workersFile(dataDir), { timeout: 0 });
    try {
      workers.pragma('locking_mode = EXCLUSIVE');
      workers.exec('BEGIN EXCLUSIVE');
      workers.exec('ROLLBACK');
      workers.close();
    } catch (error) {
      workers.close();
      release();
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      throw new Error(`${dataDir} is in use by parse workers (kbqa serve --role worker); stop them first`);
    }
  }
  writeFileSync(holderFile, JSON.stringify({ pid: process.pid, purpose, kafka } satisfies DataDirHolder));
  return release;
}

/**
 * A parse worker of the mixed profile joins a data directory that a serving owner holds: it
 * refuses without one (the owner made the directory, its schema and its key, and relays what
 * the worker appends), beside a replay or reindex, and beside an owner on another bus. Its shared
 * lock keeps `kbqa replay` and `kbqa reindex` away while it runs; the OS drops it when it dies.
 */
export function joinDataDir(dataDir: string, kafka: NonNullable<DataDirHolder['kafka']>): () => void {
  const hint = `start the owner first (kbqa serve with KAFKA_BROKERS and KBQA_DATA_DIR=${dataDir}), then the workers beside it`;
  if (!existsSync(join(dataDir, 'kbqa.lock'))) throw new Error(`--role worker: no kbqa server holds ${dataDir}; ${hint}`);
  const holder = readHolder(join(dataDir, 'kbqa.lock.json'));
  const probe = new Database(join(dataDir, 'kbqa.lock'), { timeout: 0, fileMustExist: true });
  let owned = false;
  try {
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('ROLLBACK');
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    owned = true;
  } finally {
    probe.close();
  }
  if (!owned) throw new Error(`--role worker: no kbqa server holds ${dataDir}; ${hint}`);
  if (holder?.purpose !== 'serve') throw new Error(`--role worker: ${dataDir} is in use by ${describeHolder(holder)}; wait for it to end`);
  if (!holder.kafka) throw new Error(`--role worker: the server holding ${dataDir} (process ${holder.pid}) runs without KAFKA_BROKERS, so it publishes nothing for workers to take`);
  if (holder.kafka.namespace !== kafka.namespace || !holder.kafka.brokers.some((b) => kafka.brokers.includes(b))) {
    throw new Error(`--role worker: the server holding ${dataDir} (process ${holder.pid}) uses brokers ${holder.kafka.brokers.join(',')} and KAFKA_NAMESPACE '${holder.kafka.namespace}'; set the same`);
  }
  const db = new Database(workersFile(dataDir), { timeout: 2000 });
  try {
    db.exec('CREATE TABLE IF NOT EXISTS workers (pid INTEGER)');
    db.pragma('locking_mode = EXCLUSIVE');
    // The first read takes a shared lock that this connection then keeps until it closes.
    db.prepare('SELECT count(*) FROM workers').get();
  } catch (error) {
    db.close();
    throw error;
  }
  return () => {
    if (db.open) db.close();
  };
}

const workersFile = (dataDir: string) => join(dataDir, 'kbqa.workers.lock');

function readHolder(path: string): DataDirHolder | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as DataDirHolder;
  } catch {
    return null;
  }
}

function describeHolder(holder: DataDirHolder | null): string {
  return holder ? `process ${holder.pid} (${holder.purpose})` : 'another kbqa process';
}
