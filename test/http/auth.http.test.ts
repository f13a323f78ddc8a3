import anyTest, { type TestFn } from 'ava';
import { startServer, type TestServer } from '../helpers/server.ts';

const test = anyTest as TestFn<{ server: TestServer }>;
test.before(async (t) => void (t.context.server = await startServer()));
test.after.always((t) => t.context.server?.close());

const errorOf = (body: any) => body.error as { type: string; code: string; message: string; param: string | null };

test.serial('GET /v1/models lists the offline models for a valid key', async (t) => {
  const res = await t.context.server.call('GET', '/v1/models');
  t.is(res.status, 200);
  t.is(res.body.object, 'list');
  t.true(res.body.data.some((m: any) => m.id === 'kbqa-hash-embed-512' && m.object === 'model' && m.owned_by === 'kbqa'));
  const one = await t.context.server.call('GET', '/v1/models/kbqa-hash-embed-512');
  t.is(one.body.id, 'kbqa-hash-embed-512');
  const missing = await t.context.server.call('GET', '/v1/models/gpt-9');
  t.is(missing.status, 404);
  t.is(errorOf(missing.body).code, 'model_not_found');
});

test.serial('no key, a malformed header and an unknown key are 401 in the API error shape', async (t) => {
  const { call } = t.context.server;
  const none = await call('GET', '/v1/models', { key: null });
  t.is(none.status, 401);
  t.deepEqual(Object.keys(none.body.error).sort(), ['code', 'message', 'param', 'type']);
  t.is(errorOf(none.body).type, 'authentication_error');
  t.is(errorOf(none.body).code, 'missing_api_key');
  const basic = await call('GET', '/v1/models', { key: null, headers: { authorization: 'Basic abc' } });
  t.is(errorOf(basic.body).code, 'invalid_authorization_header');
  const unknown = await call('GET', '/v1/models', { key: 'kbqa-not-a-real-key' });
  t.is(unknown.status, 401);
  t.is(errorOf(unknown.body).code, 'invalid_api_key');
});

test.serial('a revoked key is 401 at once; listing no longer shows it', async (t) => {
  const { call } = t.context.server;
  const created = await call('POST', '/v1/api-keys', { json: { name: 'temp', scopes: ['read'] } });
  t.is(created.status, 201);
  t.regex(created.body.secret, /^kbqa-/);
  t.is(created.body.hash, undefined);
  t.is((await call('GET', '/v1/models', { key: created.body.secret })).status, 200);
  const revoked = await call('DELETE', `/v1/api-keys/${created.body.id}`);
  t.deepEqual(revoked.body, { id: created.body.id, object: 'api_key.deleted', deleted: true });
  const after = await call('GET', '/v1/models', { key: created.body.secret });
  t.is(after.status, 401);
  t.is(errorOf(after.body).code, 'api_key_revoked');
  const list = await call('GET', '/v1/api-keys');
  t.false(list.body.data.some((k: any) => k.id === created.body.id));
  t.is((await call('DELETE', `/v1/api-keys/${created.body.id}`)).status, 404);
});

test.serial('an expired key is 401 api_key_expired', async (t) => {
  const { call, advanceClock } = t.context.server;
  const expiresAt = new Date(Date.now() + 60_000).toISOString();
  const created = await call('POST', '/v1/api-keys', { json: { name: 'short-lived', scopes: ['read'], expires_at: expiresAt } });
  t.is(created.status, 201);
  t.is((await call('GET', '/v1/models', { key: created.body.secret })).status, 200);
  advanceClock(61_000);
  try {
    const res = await call('GET', '/v1/models', { key: created.body.secret });
    t.is(res.status, 401);
    t.is(errorOf(res.body).code, 'api_key_expired');
  } finally {
    advanceClock(-61_000);
  }
});

test.serial('scopes: read cannot write, write cannot administer (403)', async (t) => {
  const { call } = t.context.server;
  const reader = (await call('POST', '/v1/api-keys', { json: { name: 'reader', scopes: ['read'] } })).body.secret;
  const writer = (await call('POST', '/v1/api-keys', { json: { name: 'writer' } })).body;
  t.deepEqual(writer.scopes, ['write']);
  const denied = await call('POST', '/v1/knowledge-bases', { key: reader, json: { name: 'x' } });
  t.is(denied.status, 403);
  t.is(errorOf(denied.body).type, 'permission_error');
  t.is(errorOf(denied.body).code, 'insufficient_scope');
  t.is((await call('GET', '/v1/knowledge-bases', { key: reader })).status, 200);
  t.is((await call('POST', '/v1/knowledge-bases', { key: writer.secret, json: { name: 'ok' } })).status, 201);
  t.is((await call('GET', '/v1/api-keys', { key: writer.secret })).status, 403);
});

test.serial('the api key list never shows hashes or secrets', async (t) => {
  const list = await t.context.server.call('GET', '/v1/api-keys?limit=100');
  t.is(list.status, 200);
  t.true(list.body.data.length >= 1);
  for (const key of list.body.data) {
    t.is(key.hash, undefined);
    t.is(key.secret, undefined);
    t.is(key.object, 'api_key');
  }
});

test.serial('refused writes (401 and 403) append nothing', async (t) => {
  const { call, head } = t.context.server;
  const reader = (await call('POST', '/v1/api-keys', { json: { name: 'reader-2', scopes: ['read'] } })).body.secret;
  const before = await head();
  const attempts = [
    await call('POST', '/v1/knowledge-bases', { key: null, json: { name: 'x' } }),
    await call('POST', '/v1/knowledge-bases', { key: 'kbqa-forged', json: { name: 'x' } }),
    await call('POST', '/v1/knowledge-bases', { key: reader, json: { name: 'x' } }),
    await call('POST', '/v1/api-keys', { key: reader, json: { name: 'escalate', scopes: ['admin'] } }),
  ];
  t.deepEqual(attempts.map((r) => r.status), [401, 401, 403, 403]);
  t.is(await head(), before);
});
