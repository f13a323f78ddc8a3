import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../adapters/sqlite/database.ts';
import { createSqliteSecretStore } from '../adapters/sqlite/secret-store.ts';
import { type Config, parseSecretKey } from '../config.ts';
import type { SecretStore } from '../ports/secret-store.ts';
import { randomBytes } from 'node:crypto';
import { deriveKey } from '../lib/aes-gcm.ts';

/** Where the embedded profile keeps its master key when KBQA_SECRET_KEY is not set. */
export const secretKeyFile = (dataDir: string) => join(dataDir, 'secret.key');

/**
 * The master key: KBQA_SECRET_KEY when set. Without it the embedded profile makes one on its
 * first start, readable by the owner alone; a distributed deployment refuses, since processes on
 * other machines could not share a file and a lost key loses every secret. Kafka alone (the mixed
 * profile) keeps the file: its topics carry events, never secrets, and the log and read models
 * stay in the one data directory beside the key.
 */
export function masterKey(config: Pick<Config, 'secretKey' | 'distributed' | 'dataDir'>): Buffer {
  if (config.secretKey) return config.secretKey;
  const { eventStore, mongo } = config.distributed;
  if (eventStore || mongo) {
    throw new Error('KBQA_SECRET_KEY is required when EVENTSTORE_URL or MONGODB_URL is set: 32 bytes as base64 or hex (openssl rand -base64 32)');
  }
  const path = secretKeyFile(config.dataDir);
  mkdirSync(config.dataDir, { recursive: true });
  try {
    writeFileSync(path, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    return parseSecretKey(readFileSync(path, 'utf8').trim());
  } catch {
    throw new Error(`${path} does not hold a 32-byte key (base64 or hex)`);
  }
}

/** The key that seals the console's session cookies: its own, derived from the master key (HKDF). */
export const consoleSessionKey = (master: Buffer) => deriveKey(master, 'kbqa console session v1');

/**
 * The secret store, in the data directory's database on a connection of its own (the SQLite
 * adapter turns on secure_delete for its connection, which should not slow the other tables).
 */
export function openSecretStore(config: Pick<Config, 'dataDir'>, key: Buffer): SecretStore {
  const db = openSqlite(join(config.dataDir, 'kbqa.db'));
  const store = createSqliteSecretStore(db, key);
  return { ...store, close: async () => void db.close() };
}

/**
 * The key landing-page visitor cookies are signed with: derived from the master key (HKDF, its own
 * label), so it is the same in every API process of a deployment, needs no setting of its own,
 * and a leaked cookie key reveals nothing of the master key.
 */
export const visitorCookieKey = (master: Buffer): Buffer => deriveKey(master, 'kbqa landing-page visitor cookie v1');
