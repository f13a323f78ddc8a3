import test from 'ava';
import { apiKeyCreated, knowledgeBaseCreated } from '../helpers/given-events.ts';
import { httpSpec } from '../helpers/http-spec.ts';

// Keys, scopes and refusals need no worker: each test has an app of its own over in-memory ports.
const app = (t: Parameters<typeof httpSpec>[0]) => httpSpec(t).app();

const errorOf = (body: any) => body.error as { type: string; code: string; message: string; param: string | null };

test('GET /v1/models lists the offline models for a valid key', async (t) => {
  const { call } = await app(t);
  const res = await call('GET', '/v1/models');
  t.is(res.status, 200);
  t.is(res.body.object, 'list');
  t.true(res.body.data.some((m: any) => m.id === 'kbqa-hash-embed-512' && m.object === 'model' && m.owned_by === 'kbqa'));
  const one = await call('GET', '/v1/models/kbqa-hash-embed-512');
  t.is(one.body.id, 'kbqa-hash-embed-512');
  const missing = await call('GET', '/v1/models/gpt-9');
  t.is(missing.status, 404);
  t.is(errorOf(missing.body).code, 'model_not_found');
});

test('no key, a malformed header and an unknown key are 401 in the API error shape', async (t) => {
  const { call } = await app(t);
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

test('a revoked key is 401 at once; listing no longer shows it', async (t) => {
  const { call } = await app(t);
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

test('an expired key is 401 api_key_expired', async (t) => {
  const { call, advanceClock } = await app(t);
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

test('scopes: read cannot write, write cannot administer (403)', async (t) => {
  const { call } = await app(t);
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

test('the api key list never shows hashes or secrets', async (t) => {
  const { call } = await app(t);
  const list = await call('GET', '/v1/api-keys?limit=100');
  t.is(list.status, 200);
  t.true(list.body.data.length >= 1);
  for (const key of list.body.data) {
    t.is(key.hash, undefined);
    t.is(key.secret, undefined);
    t.is(key.object, 'api_key');
  }
});

test('refused writes (401 and 403) append nothing', async (t) => {
  const { call, head } = await app(t);
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

// Told as given events → a request → the response and the events it appended.

const NOW = '2026-03-01T12:00:00.000Z';
const READER = 'kbqa-reader-secret-0123456789';

test('given a read key, a write is 403 insufficient_scope and appends nothing; a read is 200', async (t) => {
  const spec = httpSpec(t);
  await spec
    .given(apiKeyCreated({ id: 'key_reader', secret: READER, scopes: ['read'] }))
    .when({ method: 'POST', path: '/v1/knowledge-bases', key: READER, json: { name: 'x' } })
    .then({ status: 403, bodyMatches: { error: { type: 'permission_error', code: 'insufficient_scope' } }, events: [] });
  await spec.when({ method: 'GET', path: '/v1/knowledge-bases', key: READER }).then({ status: 200, events: [] });
});

test('given a key that expired a second ago, it is 401 api_key_expired', async (t) => {
  await httpSpec(t, { now: NOW })
    .given(apiKeyCreated({ id: 'key_old', secret: READER, scopes: ['read'], expiresAt: '2026-03-01T11:59:59.000Z' }))
    .when({ method: 'GET', path: '/v1/models', key: READER })
    .then({ status: 401, bodyMatches: { error: { type: 'authentication_error', code: 'api_key_expired' } }, events: [] });
});

test('given a key, revoking it appends ApiKeyRevoked and the key is refused at once', async (t) => {
  const spec = httpSpec(t, { now: NOW });
  // Used once first, so its principal is cached: the revocation must evict it.
  await spec.given(apiKeyCreated({ id: 'key_temp', secret: READER, scopes: ['read'] })).when({ method: 'GET', path: '/v1/models', key: READER }).then({ status: 200 });
  await spec
    .when({ method: 'DELETE', path: '/v1/api-keys/key_temp' })
    .then({ status: 200, body: { id: 'key_temp', object: 'api_key.deleted', deleted: true }, events: [{ type: 'ApiKeyRevoked', data: { key_id: 'key_temp', revoked_at: NOW } }] });
  await spec.when({ method: 'GET', path: '/v1/models', key: READER }).then({ status: 401, bodyMatches: { error: { code: 'api_key_revoked' } } });
});

test('given a key limited to one knowledge base, a key it makes may not reach further (403, nothing written)', async (t) => {
  const WRITER = 'kbqa-writer-secret-0123456789';
  await httpSpec(t)
    .given(
      knowledgeBaseCreated({ id: 'kb_mine' }),
      knowledgeBaseCreated({ id: 'kb_other' }),
      apiKeyCreated({ id: 'key_limited', secret: WRITER, scopes: ['admin'], knowledgeBaseIds: ['kb_mine'] }),
    )
    .when({ method: 'POST', path: '/v1/api-keys', key: WRITER, json: { name: 'wider', knowledge_base_ids: ['kb_other'] } })
    .then({ status: 403, events: [] });
});
