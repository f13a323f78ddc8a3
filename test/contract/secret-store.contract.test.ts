import test from 'ava';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteSecretStore } from '../../src/adapters/sqlite/secret-store.ts';
import { tempDir } from '../helpers/temp.ts';
import { testSecretStore } from './suites/secret-store.suite.ts';

const filesOf = (dir: string) => Buffer.concat(readdirSync(dir).map((name) => readFileSync(join(dir, name))));

testSecretStore(test, 'sqlite', async () => {
  const dir = tempDir();
  const key = randomBytes(32);
  const openStore = () => {
    const db = openSqlite(join(dir.path, 'kbqa.db'));
    const store = createSqliteSecretStore(db, key);
    return { ...store, close: async () => void db.close() };
  };
  const secrets = openStore();
  return {
    secrets,
    bytesAtRest: () => filesOf(dir.path),
    reopen: async () => openStore(),
    cleanup: async () => {
      await secrets.close().catch(() => {});
      dir.remove();
    },
  };
});

test('sqlite › another master key cannot open the values', async (t) => {
  const dir = tempDir();
  const path = join(dir.path, 'kbqa.db');
  const db = openSqlite(path);
  await createSqliteSecretStore(db, randomBytes(32)).put('ws_a', 'sec_1', 'value');
  db.close();
  const other = openSqlite(path);
  await t.throwsAsync(createSqliteSecretStore(other, randomBytes(32)).get('ws_a', 'sec_1'));
  other.close();
  dir.remove();
});

test('sqlite › a master key that is not 32 bytes is refused', (t) => {
  const db = openSqlite(':memory:');
  t.throws(() => createSqliteSecretStore(db, randomBytes(16)), { message: /32-byte/ });
  db.close();
});
