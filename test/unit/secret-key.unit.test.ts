import test from 'ava';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { loadConfig } from '../../src/config.ts';
import { masterKey, secretKeyFile } from '../../src/composition/secret-store.ts';
import { tempDir } from '../helpers/temp.ts';

test('KBQA_SECRET_KEY is read as 64 hex digits or base64 of 32 bytes; anything else is named without echoing it', (t) => {
  const key = randomBytes(32);
  t.deepEqual(loadConfig({ KBQA_SECRET_KEY: key.toString('hex') }).secretKey, key);
  t.deepEqual(loadConfig({ KBQA_SECRET_KEY: key.toString('base64') }).secretKey, key);
  t.is(loadConfig({}).secretKey, undefined);
  const error = t.throws(() => loadConfig({ KBQA_SECRET_KEY: 'too-short-secret' }), { message: /KBQA_SECRET_KEY: must be 32 bytes/ });
  t.false(error.message.includes('too-short-secret'));
});

test('the embedded profile makes its master key once, in <data dir>/secret.key with mode 0600', (t) => {
  const dir = tempDir();
  const config = loadConfig({ KBQA_DATA_DIR: dir.path });
  const first = masterKey(config);
  t.is(first.length, 32);
  t.is(statSync(secretKeyFile(dir.path)).mode & 0o777, 0o600);
  t.deepEqual(masterKey(config), first);
  t.deepEqual(Buffer.from(readFileSync(secretKeyFile(dir.path), 'utf8').trim(), 'base64'), first);
  dir.remove();
});

test('the distributed profile refuses to start without KBQA_SECRET_KEY, and names it', (t) => {
  const dir = tempDir();
  for (const env of [{ EVENTSTORE_URL: 'esdb://es:2113' }, { MONGODB_URL: 'mongodb://mongo:27017' }]) {
    t.throws(() => masterKey(loadConfig({ KBQA_DATA_DIR: dir.path, ...env })), { message: /KBQA_SECRET_KEY is required/ });
  }
  const key = randomBytes(32);
  t.deepEqual(masterKey(loadConfig({ KBQA_DATA_DIR: dir.path, MONGODB_URL: 'mongodb://mongo:27017', KBQA_SECRET_KEY: key.toString('hex') })), key);
  dir.remove();
});

test('Kafka alone (the mixed profile) keeps the data directory\'s key file: its topics carry no secrets', (t) => {
  const dir = tempDir();
  const config = loadConfig({ KBQA_DATA_DIR: dir.path, KAFKA_BROKERS: 'kafka:9092' });
  t.deepEqual(masterKey(config), masterKey(config));
  t.is(statSync(secretKeyFile(dir.path)).mode & 0o777, 0o600);
  dir.remove();
});
