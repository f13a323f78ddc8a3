import test from 'ava';
import { LOOPBACK_PROVIDERS } from '../helpers/provider-servers.ts';
import { createServer, type Server } from 'node:net';
import { handleCommand } from '../../src/app/command-handler.ts';
import { DEFAULT_WORKSPACE } from '../../src/app/services/workspaces.ts';
import { providerNameDecider, providerNameKey } from '../../src/domain/model-provider/provider-name.ts';
import { type EmbeddingsServer, startEmbeddingsServer } from '../helpers/openai-compatible-server.ts';
import { type RefusedKeys, keysToRefuse } from '../helpers/refused-keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const PROVIDER_KEY = 'sk-loopback-provider-key-9c1d';
let server: TestServer;
let loopback: EmbeddingsServer;
let keys: RefusedKeys;

test.before(async () => {
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', ...LOOPBACK_PROVIDERS });
  loopback = await startEmbeddingsServer({ dimensions: 8, apiKey: PROVIDER_KEY, models: ['loop-chat', 'loop-embed-small'] });
  keys = await keysToRefuse(server, 'providers-other');
});

test.after.always(async () => {
  await server.close();
  await loopback.close();
});

const create = (json: Record<string, unknown>, key?: string) => server.call('POST', '/v1/model-providers', { key, json });
const loop = (name: string, extra: Record<string, unknown> = {}) => ({ name, base_url: loopback.baseUrl, api_key: PROVIDER_KEY, models: [{ id: 'loop-chat', type: 'chat' }], ...extra });
const remove = (id: string) => server.call('DELETE', `/v1/model-providers/${id}`);

test.serial('a provider is created, read, listed, changed and deleted; its key is only ever a hint', async (t) => {
  const created = await create(loop('acme', { models: [{ id: 'loop-chat', type: 'chat' }, { id: 'loop-embed-small', type: 'embedding', dimensions: 8 }] }));
  t.is(created.status, 201);
  t.regex(created.body.id, /^mp_/);
  t.like(created.body, { object: 'model_provider', name: 'acme', base_url: loopback.baseUrl, api_key_hint: '…9c1d' });
  t.deepEqual(Object.keys(created.body).sort(), ['api_key_hint', 'base_url', 'created_at', 'id', 'models', 'name', 'object', 'updated_at']);
  t.false(JSON.stringify(created.body).includes(PROVIDER_KEY));
  const id = created.body.id as string;

  t.deepEqual((await server.call('GET', `/v1/model-providers/${id}`)).body, created.body);
  const listed = await server.call('GET', '/v1/model-providers');
  t.like(listed.body, { object: 'list', has_more: false, first_id: id, last_id: id });
  t.deepEqual(listed.body.data, [created.body]);

  const patched = await server.call('PATCH', `/v1/model-providers/${id}`, { json: { name: 'acme-two', api_key: 'sk-rotated-key-77aa', models: [] } });
  t.is(patched.status, 200);
  t.like(patched.body, { id, name: 'acme-two', api_key_hint: '…77aa', models: [] });

  t.is((await remove(id)).status, 200);
  t.is((await server.call('GET', `/v1/model-providers/${id}`)).status, 404);
  t.is((await remove(id)).body.error.code, 'model_provider_not_found');
});

test.serial('names are checked: the pattern (400) and once per workspace (409); another workspace may reuse one', async (t) => {
  for (const name of ['Upper', '-dash', 'a'.repeat(33), 'has/slash']) t.is((await create(loop(name))).status, 400, name);
  for (const base_url of ['ftp://host/v1', 'http://user:pass@host/v1', 'http://host/v1?key=x']) {
    const res = await create(loop('urls', { base_url }));
    t.is(res.status, 400, base_url);
    t.is(res.body.error.param, 'base_url');
  }
  t.is((await create(loop('acme', { models: [{ id: 'm', type: 'chat', dimensions: 3 }] }))).status, 400);
  t.is((await create(loop('acme', { models: [{ id: 'm', type: 'chat' }, { id: 'm', type: 'chat' }] }))).body.error.code, 'duplicate_model');
  const first = await create(loop('taken'));
  const twice = await create(loop('taken'));
  t.is(twice.status, 409);
  t.is(twice.body.error.code, 'model_provider_name_taken');
  const theirs = await create(loop('taken'), keys.other);
  t.is(theirs.status, 201);
  await remove(first.body.id);
  await server.call('DELETE', `/v1/model-providers/${theirs.body.id}`, { key: keys.other });
});

test.serial('requests racing for one name: exactly one gets it; a deleted or renamed provider frees its name', async (t) => {
  const answers = await Promise.all(Array.from({ length: 6 }, () => create(loop('raced'))));
  t.deepEqual(answers.map((a) => a.status).sort(), [201, 409, 409, 409, 409, 409]);
  const winner = answers.find((a) => a.status === 201)!.body.id as string;
  t.is((await server.call('PATCH', `/v1/model-providers/${winner}`, { json: { name: 'raced-renamed' } })).status, 200);
  const reused = await create(loop('raced'));
  t.is(reused.status, 201);
  t.is((await server.call('PATCH', `/v1/model-providers/${reused.body.id}`, { json: { name: 'raced-renamed' } })).body.error.code, 'model_provider_name_taken');
  await remove(winner);
  t.is((await server.call('PATCH', `/v1/model-providers/${reused.body.id}`, { json: { name: 'raced-renamed' } })).status, 200);
  await remove(reused.body.id);
  const again = await create(loop('raced'));
  t.is(again.status, 201);
  await remove(again.body.id);
});

test.serial('a name claimed by a provider that never came to be (a crash between claim and creation) is taken over', async (t) => {
  const { ctx } = server.runtime;
  await handleCommand(ctx.store, providerNameDecider, providerNameKey(DEFAULT_WORKSPACE, 'ghosted'), {
    type: 'ClaimProviderName',
    data: { workspace_id: DEFAULT_WORKSPACE, name: 'ghosted', provider_id: 'mp_never_created' },
    metadata: { now: new Date().toISOString() },
  });
  const created = await create(loop('ghosted'));
  t.is(created.status, 201);
  await remove(created.body.id);
});

test.serial('GET /v1/models lists the workspace’s provider models as {provider}/{model} with type and owned_by, to that workspace only', async (t) => {
  const provider = await create(loop('listed', { models: [{ id: 'loop-chat', type: 'chat' }, { id: 'loop-embed-small', type: 'embedding', dimensions: 8 }] }));
  const mine = (await server.call('GET', '/v1/models')).body.data as { id: string; type: string; owned_by: string }[];
  t.like(mine.find((m) => m.id === 'listed/loop-chat'), { type: 'chat', owned_by: 'listed', object: 'model' });
  t.like(mine.find((m) => m.id === 'listed/loop-embed-small'), { type: 'embedding', owned_by: 'listed' });
  t.like(mine.find((m) => m.id === 'kbqa-extractive'), { type: 'chat', owned_by: 'kbqa' });
  t.like(mine.find((m) => m.id === 'kbqa-hash-embed-512'), { type: 'embedding', owned_by: 'kbqa' });
  t.like((await server.call('GET', '/v1/models/listed%2Floop-chat')).body, { id: 'listed/loop-chat', type: 'chat' });
  // A read key of the workspace lists them too; another workspace does not see them.
  t.true(((await server.call('GET', '/v1/models', { key: keys.read })).body.data as { id: string }[]).some((m) => m.id === 'listed/loop-chat'));
  const theirs = (await server.call('GET', '/v1/models', { key: keys.other })).body.data as { id: string }[];
  t.false(theirs.some((m) => m.id.startsWith('listed/')));
  t.is((await server.call('GET', '/v1/models/listed%2Floop-chat', { key: keys.other })).status, 404);
  await remove(provider.body.id);
  t.false(((await server.call('GET', '/v1/models')).body.data as { id: string }[]).some((m) => m.id.startsWith('listed/')));
});

test.serial('test and discover against the loopback provider: ok with the key, auth_failed without it', async (t) => {
  const good = await create(loop('good'));
  const check = await server.call('POST', `/v1/model-providers/${good.body.id}/test`);
  t.is(check.status, 200);
  t.like(check.body, { ok: true });
  t.true(Number.isInteger(check.body.latency_ms));
  t.is(check.body.error, undefined);
  const found = await server.call('POST', `/v1/model-providers/${good.body.id}/discover`);
  t.deepEqual(found.body, { object: 'list', data: [{ id: 'loop-chat' }, { id: 'loop-embed-small', type: 'embedding' }] });

  const bad = await create(loop('bad-key', { api_key: 'sk-wrong-key' }));
  const refused = await server.call('POST', `/v1/model-providers/${bad.body.id}/test`);
  t.like(refused.body, { ok: false, error: { code: 'auth_failed' } });
  const notListed = await server.call('POST', `/v1/model-providers/${bad.body.id}/discover`);
  t.is(notListed.status, 502);
  t.is(notListed.body.error.code, 'provider_auth_failed');
  t.false(JSON.stringify([refused.body, notListed.body]).includes('sk-wrong-key'));
  await remove(good.body.id);
  await remove(bad.body.id);
});

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test.serial('test names what failed: wrong path, connection refused, DNS', async (t) => {
  const origin = loopback.baseUrl.replace(/\/v1$/, '');
  const cases = [
    { name: 'wrong-path', base_url: `${origin}/api`, code: 'wrong_path' },
    { name: 'refused', base_url: `http://127.0.0.1:${await closedPort()}/v1`, code: 'connection_refused' },
    { name: 'no-such-host', base_url: 'http://kbqa-no-such-host.invalid/v1', code: 'dns_failed' },
  ];
  for (const { name, base_url, code } of cases) {
    const provider = await create(loop(name, { base_url }));
    const check = await server.call('POST', `/v1/model-providers/${provider.body.id}/test`);
    t.is(check.status, 200, name);
    t.like(check.body, { ok: false, error: { code } }, name);
    t.is(typeof check.body.error.message, 'string');
    const discover = await server.call('POST', `/v1/model-providers/${provider.body.id}/discover`);
    t.is(discover.status, 502, name);
    t.is(discover.body.error.code, `provider_${code}`, name);
    await remove(provider.body.id);
  }
});

test.serial('a provider whose models a knowledge base uses is not deleted (409 in_use naming it), nor renamed, nor are those models dropped or resized', async (t) => {
  const embed = { id: 'loop-embed-small', type: 'embedding', dimensions: 8 };
  const rerank = { id: 'loop-rerank', type: 'rerank' };
  const provider = await create(loop('in-use', { models: [embed, rerank, { id: 'loop-chat', type: 'chat' }] }));
  const id = provider.body.id as string;
  const kb = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'uses a provider', settings: { embedding_model: 'in-use/loop-embed-small' } } });
  t.is(kb.status, 201, JSON.stringify(kb.body));
  const reranks = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'reranks with it', settings: { rerank: { enabled: true, model: 'in-use/loop-rerank' } } } });
  t.is(reranks.status, 201, JSON.stringify(reranks.body));
  const refused = await remove(id);
  t.is(refused.status, 409);
  t.is(refused.body.error.code, 'in_use');
  t.true(refused.body.error.message.includes(kb.body.id));
  t.true(refused.body.error.message.includes(reranks.body.id));
  const renamed = await server.call('PATCH', `/v1/model-providers/${id}`, { json: { name: 'elsewhere' } });
  t.is(renamed.status, 409);
  t.is(renamed.body.error.code, 'in_use');
  t.true(renamed.body.error.message.includes(kb.body.id) && renamed.body.error.message.includes(reranks.body.id), renamed.body.error.message);
  const patchModels = (models: unknown[]) => server.call('PATCH', `/v1/model-providers/${id}`, { json: { models } });
  // Each list strands one of the two: the message names that one.
  for (const [models, stranded] of [[[rerank], kb], [[{ ...embed, dimensions: 16 }, rerank], kb], [[embed], reranks]] as const) {
    const refusedModels = await patchModels([...models]);
    t.is(refusedModels.status, 409, JSON.stringify(models));
    t.is(refusedModels.body.error.code, 'in_use');
    t.true(refusedModels.body.error.message.includes(stranded.body.id), refusedModels.body.error.message);
  }
  // Nothing changed: the provider is still there, under its name, with its models.
  t.like((await server.call('GET', `/v1/model-providers/${id}`)).body, { name: 'in-use', models: [embed, rerank, { id: 'loop-chat', type: 'chat' }] });
  // Models no knowledge base uses come and go freely.
  t.is((await patchModels([embed, rerank])).status, 200);
  t.is((await server.call('DELETE', `/v1/knowledge-bases/${kb.body.id}`)).status, 200);
  t.is((await server.call('DELETE', `/v1/knowledge-bases/${reranks.body.id}`)).status, 200);
  t.is((await remove(id)).status, 200);
});

test.serial('read and write keys are refused (403), and so are keys limited to knowledge bases; another workspace gets 404', async (t) => {
  const provider = await create(loop('guarded'));
  const id = provider.body.id as string;
  const calls: [string, string, unknown?][] = [
    ['POST', '/v1/model-providers', loop('nope')],
    ['GET', '/v1/model-providers'],
    ['GET', `/v1/model-providers/${id}`],
    ['PATCH', `/v1/model-providers/${id}`, { name: 'nope' }],
    ['DELETE', `/v1/model-providers/${id}`],
    ['POST', `/v1/model-providers/${id}/test`],
    ['POST', `/v1/model-providers/${id}/discover`],
  ];
  for (const [method, path, json] of calls) {
    for (const key of [keys.read, keys.write]) t.is((await server.call(method, path, { key, json })).status, 403, `${method} ${path}`);
    const limited = await server.call(method, path, { key: keys.limitedAdmin, json });
    t.is(limited.status, 403, `${method} ${path} limited`);
    t.is(limited.body.error.code, 'workspace_key_required');
  }
  for (const [method, path, json] of calls.slice(2)) {
    const foreign = await server.call(method, path, { key: keys.other, json });
    t.is(foreign.status, 404, `${method} ${path} other workspace`);
    t.is(foreign.body.error.code, 'model_provider_not_found');
  }
  t.deepEqual((await server.call('GET', '/v1/model-providers', { key: keys.other })).body.data, []);
  t.like((await server.call('GET', `/v1/model-providers/${id}`)).body, { name: 'guarded' });
  await remove(id);
});
