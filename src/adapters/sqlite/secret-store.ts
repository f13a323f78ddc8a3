import { randomBytes } from 'node:crypto';
import type { MasterKey, SecretStore } from '../../ports/secret-store.ts';
import { open, seal } from '../../lib/aes-gcm.ts';
import { immediate, type SqliteDatabase } from './database.ts';

/**
 * The embedded secret store: two tables in the data directory's database. Each workspace has a
 * random data key, stored only wrapped (sealed) by the master key; each value is sealed by its
 * workspace's data key, bound to its workspace and ref. Neither table ever holds a plain value.
 *
 * `secure_delete` makes SQLite overwrite a deleted row's bytes instead of leaving them in a free
 * page, so a deleted value's ciphertext does not linger in the file. The pragma belongs to the
 * connection, which is why the composition root gives this store a connection of its own rather
 * than slowing every delete of the read models and indexes.
 */
export function createSqliteSecretStore(db: SqliteDatabase, masterKey: MasterKey): SecretStore {
  if (masterKey.length !== 32) throw new Error('the secret store needs a 32-byte master key');
  db.pragma('secure_delete = ON');
  db.exec(`
    CREATE TABLE IF NOT EXISTS secret_data_keys (workspace_id TEXT PRIMARY KEY, wrapped_key BLOB NOT NULL);
    CREATE TABLE IF NOT EXISTS secret_values (
      workspace_id TEXT NOT NULL,
      ref TEXT NOT NULL,
      sealed BLOB NOT NULL,
      PRIMARY KEY (workspace_id, ref)
    );`);
  const readKey = db.prepare<[string], { wrapped_key: Buffer }>('SELECT wrapped_key FROM secret_data_keys WHERE workspace_id = ?');
  const insertKey = db.prepare('INSERT OR IGNORE INTO secret_data_keys (workspace_id, wrapped_key) VALUES (?, ?)');
  const upsertValue = db.prepare(
    'INSERT INTO secret_values (workspace_id, ref, sealed) VALUES (?, ?, ?) ON CONFLICT (workspace_id, ref) DO UPDATE SET sealed = excluded.sealed',
  );
  const readValue = db.prepare<[string, string], { sealed: Buffer }>('SELECT sealed FROM secret_values WHERE workspace_id = ? AND ref = ?');
  const deleteValue = db.prepare('DELETE FROM secret_values WHERE workspace_id = ? AND ref = ?');

  const keyContext = (workspaceId: string) => `kbqa data key ${workspaceId}`;
  const valueContext = (workspaceId: string, ref: string) => `kbqa secret ${workspaceId} ${ref}`;

  /** The workspace's data key, made on its first secret (in one transaction, so two writers agree on it). */
  const dataKey = (workspaceId: string, create: boolean): Buffer | null =>
    immediate(db, () => {
      const row = readKey.get(workspaceId);
      if (row) return open(masterKey, row.wrapped_key, keyContext(workspaceId));
      if (!create) return null;
      const key = randomBytes(32);
      insertKey.run(workspaceId, seal(masterKey, key, keyContext(workspaceId)));
      return key;
    });

  return {
    async put(workspaceId, ref, value) {
      const key = dataKey(workspaceId, true)!;
      upsertValue.run(workspaceId, ref, seal(key, Buffer.from(value, 'utf8'), valueContext(workspaceId, ref)));
    },
    async get(workspaceId, ref) {
      const row = readValue.get(workspaceId, ref);
      if (!row) return null;
      const key = dataKey(workspaceId, false);
      if (!key) return null;
      return open(key, row.sealed, valueContext(workspaceId, ref)).toString('utf8');
    },
    async delete(workspaceId, ref) {
      deleteValue.run(workspaceId, ref);
    },
    async close() {},
  };
}
