import test from 'ava';
import { DEFAULT_WORKSPACE } from '../../src/app/services/workspaces.ts';
import { type RefusedKeys, keysToRefuse } from '../helpers/refused-keys.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let keys: RefusedKeys;

test.before(async () => {
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0' });
  keys = await keysToRefuse(server, 'secrets-other');
});

test.after.always(() => server.close());

const VALUE = 'sk-secret-value-never-shown-4f2a';

test.serial('a secret is stored, shown by name and hint only, listed, and deleted', async (t) => {
  const created = await server.call('POST', '/v1/secrets', { json: { name: 'openai-key', value: VALUE } });
  t.is(created.status, 201);
  t.deepEqual(Object.keys(created.body).sort(), ['allowed_hosts', 'created_at', 'hint', 'name']);
  t.like(created.body, { name: 'openai-key', hint: '…4f2a' });
  t.false(JSON.stringify(created.body).includes(VALUE));

  const listed = await server.call('GET', '/v1/secrets');
  t.is(listed.status, 200);
  t.like(listed.body, { object: 'list', has_more: false, first_id: 'openai-key', last_id: 'openai-key' });
  t.deepEqual(listed.body.data, [created.body]);

  const deleted = await server.call('DELETE', '/v1/secrets/openai-key');
  t.is(deleted.status, 200);
  t.deepEqual(deleted.body, { name: 'openai-key', object: 'secret.deleted', deleted: true });
  t.deepEqual((await server.call('GET', '/v1/secrets')).body.data, []);
  const again = await server.call('DELETE', '/v1/secrets/openai-key');
  t.is(again.status, 404);
  t.is(again.body.error.code, 'secret_not_found');
});

test.serial('a name is taken once (409); after a delete it may be stored again', async (t) => {
  t.is((await server.call('POST', '/v1/secrets', { json: { name: 'dup', value: 'first-value' } })).status, 201);
  const twice = await server.call('POST', '/v1/secrets', { json: { name: 'dup', value: 'second-value' } });
  t.is(twice.status, 409);
  t.is(twice.body.error.code, 'secret_exists');
  t.is((await server.call('DELETE', '/v1/secrets/dup')).status, 200);
  t.is((await server.call('POST', '/v1/secrets', { json: { name: 'dup', value: 'third-value' } })).status, 201);
  await server.call('DELETE', '/v1/secrets/dup');
});

test.serial('lists page by name', async (t) => {
  for (const name of ['page-c', 'page-a', 'page-b']) await server.call('POST', '/v1/secrets', { json: { name, value: `value of ${name}` } });
  const first = await server.call('GET', '/v1/secrets?limit=2');
  t.deepEqual(first.body.data.map((s: { name: string }) => s.name), ['page-a', 'page-b']);
  t.true(first.body.has_more);
  const next = await server.call('GET', `/v1/secrets?limit=2&after=${first.body.last_id}`);
  t.deepEqual(next.body.data.map((s: { name: string }) => s.name), ['page-c']);
  for (const name of ['page-a', 'page-b', 'page-c']) await server.call('DELETE', `/v1/secrets/${name}`);
});

test.serial('a bad name or an empty value is a 400 naming the field', async (t) => {
  const badName = await server.call('POST', '/v1/secrets', { json: { name: 'has space', value: 'v' } });
  t.is(badName.status, 400);
  t.is(badName.body.error.param, 'name');
  const empty = await server.call('POST', '/v1/secrets', { json: { name: 'empty', value: '' } });
  t.is(empty.status, 400);
  t.is(empty.body.error.param, 'value');
});

test.serial('read and write keys are refused (403) on every route', async (t) => {
  await server.call('POST', '/v1/secrets', { json: { name: 'scoped', value: VALUE } });
  for (const key of [keys.read, keys.write]) {
    t.is((await server.call('POST', '/v1/secrets', { key, json: { name: 'nope', value: 'v' } })).status, 403);
    t.is((await server.call('GET', '/v1/secrets', { key })).status, 403);
    t.is((await server.call('DELETE', '/v1/secrets/scoped', { key })).status, 403);
    t.is((await server.call('PATCH', '/v1/secrets/scoped', { key, json: { allowed_hosts: ['evil.example'] } })).status, 403);
  }
  t.is((await server.call('GET', '/v1/secrets')).body.data.length, 1);
  await server.call('DELETE', '/v1/secrets/scoped');
});

test.serial('a key limited to some knowledge bases is refused (403): secrets are workspace-wide', async (t) => {
  await server.call('POST', '/v1/secrets', { json: { name: 'wide', value: VALUE } });
  const key = keys.limitedAdmin;
  for (const [method, path, json] of [['POST', '/v1/secrets', { name: 'nope', value: 'v' }], ['GET', '/v1/secrets'], ['PATCH', '/v1/secrets/wide', { allowed_hosts: [] }], ['DELETE', '/v1/secrets/wide']] as const) {
    const res = await server.call(method, path, { key, json });
    t.is(res.status, 403, `${method} ${path}`);
    t.is(res.body.error.code, 'workspace_key_required');
  }
  t.is((await server.call('DELETE', '/v1/secrets/wide')).status, 200);
});

test.serial('another workspace neither lists nor deletes a secret (404), and may use the same name', async (t) => {
  await server.call('POST', '/v1/secrets', { json: { name: 'mine', value: VALUE } });
  t.deepEqual((await server.call('GET', '/v1/secrets', { key: keys.other })).body.data, []);
  t.is((await server.call('DELETE', '/v1/secrets/mine', { key: keys.other })).status, 404);
  t.is((await server.call('PATCH', '/v1/secrets/mine', { key: keys.other, json: { allowed_hosts: ['evil.example'] } })).status, 404);
  t.is((await server.call('POST', '/v1/secrets', { key: keys.other, json: { name: 'mine', value: 'theirs-value' } })).status, 201);
  t.is((await server.call('GET', '/v1/secrets', { key: ADMIN_KEY })).body.data.length, 1);
  t.is((await server.call('DELETE', '/v1/secrets/mine')).status, 200);
  t.is((await server.call('GET', '/v1/secrets', { key: keys.other })).body.data.length, 1);
});

test.serial('the events carry the ref, never the value; a deleted secret is destroyed in the store', async (t) => {
  await server.call('POST', '/v1/secrets', { json: { name: 'shredded', value: VALUE } });
  const events = (await server.runtime.store.readAll()).filter((e) => e.type.startsWith('Secret'));
  const stored = events.find((e) => e.type === 'SecretStored' && JSON.stringify(e.data).includes('"shredded"'));
  t.truthy(stored);
  t.false(JSON.stringify(events.map((e) => e.data)).includes(VALUE));
  const ref = String((stored!.data as Record<string, unknown>).secret_ref);
  t.is(await server.runtime.secrets.get(DEFAULT_WORKSPACE, ref), VALUE);
  await server.call('DELETE', '/v1/secrets/shredded');
  t.is(await server.runtime.secrets.get(DEFAULT_WORKSPACE, ref), null);
});
