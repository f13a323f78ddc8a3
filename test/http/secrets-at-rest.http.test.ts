import test from 'ava';
import { LOOPBACK_PROVIDERS } from '../helpers/provider-servers.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { captureLogs } from '../helpers/logs.ts';
import { startEmbeddingsServer } from '../helpers/openai-compatible-server.ts';
import { startServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp.ts';

/** Every file under `dir`, as bytes. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, bytes: readFileSync(path) };
    });
}

test('no plain secret is anywhere in the data directory, nor in the log, after providers and secrets are made and the server restarts', async (t) => {
  const dir = tempDir();
  const logs = captureLogs();
  const providerKey = 'sk-at-rest-provider-key-5e8b21';
  const rotated = 'sk-at-rest-rotated-key-a7c310';
  const kept = 'secret-at-rest-kept-value-19d4';
  const deleted = 'secret-at-rest-deleted-value-c02f';
  const loopback = await startEmbeddingsServer({ dimensions: 8, apiKey: rotated, models: ['loop-chat'] });
  const env = { KBQA_DATA_DIR: dir.path, KBQA_LOG_LEVEL: 'debug', ...LOOPBACK_PROVIDERS };

  const first = await startServer(env, { logger: logs.logger });
  const provider = await first.call('POST', '/v1/model-providers', { json: { name: 'at-rest', base_url: loopback.baseUrl, api_key: providerKey, models: [{ id: 'loop-chat', type: 'chat' }] } });
  t.is(provider.status, 201);
  t.is((await first.call('PATCH', `/v1/model-providers/${provider.body.id}`, { json: { api_key: rotated } })).status, 200);
  t.is((await first.call('POST', '/v1/secrets', { json: { name: 'kept', value: kept } })).status, 201);
  t.is((await first.call('POST', '/v1/secrets', { json: { name: 'deleted', value: deleted } })).status, 201);
  t.is((await first.call('DELETE', '/v1/secrets/deleted')).status, 200);
  await first.close();

  const second = await startServer(env, { logger: logs.logger });
  // The key survived the restart, encrypted: the provider still authenticates with it.
  t.like((await second.call('POST', `/v1/model-providers/${provider.body.id}/test`)).body, { ok: true });
  t.deepEqual(((await second.call('GET', '/v1/secrets')).body.data as { name: string }[]).map((s) => s.name), ['kept']);
  await second.close();
  await loopback.close();

  const files = filesUnder(dir.path);
  t.true(files.some((f) => f.path.endsWith('kbqa.db')));
  for (const plain of [providerKey, rotated, kept, deleted]) {
    const needle = Buffer.from(plain, 'utf8');
    t.deepEqual(files.filter((f) => f.bytes.includes(needle)).map((f) => f.path), [], `${plain} is stored in plain`);
    t.false(logs.text().includes(plain), `${plain} is in the log`);
  }
  dir.remove();
});
