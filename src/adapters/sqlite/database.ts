import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;
/** A prepared statement whose parameters are checked by SQLite, not by the type system. */
export type Statement = Database.Statement<any[], unknown>;

/**
 * One file holds the log, the read models and the checkpoints, so a projection's writes and
 * its checkpoint commit in one transaction. WAL with synchronous=NORMAL survives a killed
 * process (the OS still has the pages); only a power cut may lose the last transactions.
 */
export function openSqlite(path: string): SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}

const runners = new WeakMap<SqliteDatabase, Database.Transaction<(fn: () => unknown) => unknown>>();

/** Runs `fn` in a write transaction that takes the lock up front, so readers never upgrade mid-way. */
export function immediate<T>(db: SqliteDatabase, fn: () => T): T {
  let runner = runners.get(db);
  if (!runner) runners.set(db, (runner = db.transaction((inner: () => unknown) => inner())));
  return runner.immediate(fn) as T;
}
