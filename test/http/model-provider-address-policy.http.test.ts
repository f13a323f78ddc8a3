import test from 'ava';
import { loopbackChatEnv, startProviderServer } from '../helpers/provider-servers.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * A workspace's model provider reaches only what the workflow HTTP node may (issue 42, item 21):
 * its base_url is the tenant's to choose, so loopback and private addresses are refused after DNS
 * unless KBQA_WORKFLOW_HTTP_ALLOW_HOSTS allows them. The deployment's provider (OPENAI_BASE_URL)
 * is the operator's: exempt. This server allows nothing, so the loopback stand-in is "inside".
 */
type Provider = Awaited<ReturnType<typeof startProviderServer>>;

let server: TestServer;
let inside: Provider;
let deployment: Provider;

test.before(async () => {
  inside = await startProviderServer({ pieces: ['from inside'] });
  deployment = await startProviderServer({ pieces: ['the operator’s'] });
  server = await startServer(loopbackChatEnv(deployment.baseUrl, { KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_QUERY_PROCESSES: '0' }));
  const models = [{ id: 'm-chat', type: 'chat' }, { id: 'm-embed', type: 'embedding', dimensions: 8 }];
  for (const [name, base_url] of [['inside', inside.baseUrl], ['localhost', inside.baseUrl.replace('127.0.0.1', 'localhost')], ['metadata', 'http://169.254.169.254/v1']]) {
    const created = await server.call('POST', '/v1/model-providers', { json: { name, base_url, api_key: 'sk-inside-0123456789', models } });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  }
});
test.after.always(async () => {
  await server?.close();
  await Promise.all([inside?.close(), deployment?.close()]);
});

const chat = (model: string) => server.call('POST', '/v1/chat/completions', { json: { model, messages: [{ role: 'user', content: 'hello' }] } });

test.serial('chat and embeddings with a workspace provider on loopback, localhost or the metadata address are refused before any connection', async (t) => {
  for (const name of ['inside', 'localhost', 'metadata']) {
    const res = await chat(`${name}/m-chat`);
    t.is(res.status, 502, `${name}: ${JSON.stringify(res.body)}`);
    t.is(res.body.error.code, 'provider_unavailable');
    t.regex(res.body.error.message, /not public .*KBQA_WORKFLOW_HTTP_ALLOW_HOSTS/, name);
  }
  const embedded = await server.call('POST', '/v1/embeddings', { json: { model: 'inside/m-embed', input: 'hello' } });
  t.is(embedded.status, 502, JSON.stringify(embedded.body));
  t.regex(embedded.body.error.message, /KBQA_WORKFLOW_HTTP_ALLOW_HOSTS/);
  t.is(inside.requests.length, 0, 'not a byte reached the inside server');
});

test.serial('the provider check says the address is refused, and why', async (t) => {
  const list = await server.call('GET', '/v1/model-providers');
  const id = list.body.data.find((p: { name: string }) => p.name === 'inside').id;
  const checked = await server.call('POST', `/v1/model-providers/${id}/test`);
  t.is(checked.status, 200, JSON.stringify(checked.body));
  t.like(checked.body, { ok: false, error: { code: 'forbidden_address' } });
  t.regex(checked.body.error.message, /KBQA_WORKFLOW_HTTP_ALLOW_HOSTS/);
  const discovered = await server.call('POST', `/v1/model-providers/${id}/discover`);
  t.is(discovered.status, 502);
  t.is(discovered.body.error.code, 'provider_forbidden_address');
  t.is(inside.requests.length, 0);
});

test.serial('the deployment’s provider on loopback is the operator’s choice: it answers', async (t) => {
  const res = await chat('loop-chat');
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.body.choices[0].message.content, 'the operator’s');
});

test('with the allow-list the same workspace provider answers', async (t) => {
  const allowed = await startServer({ KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1', KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_QUERY_PROCESSES: '0' });
  t.teardown(() => allowed.close());
  const created = await allowed.call('POST', '/v1/model-providers', { json: { name: 'inside', base_url: inside.baseUrl, api_key: 'sk-inside-0123456789', models: [{ id: 'm-chat', type: 'chat' }] } });
  t.is(created.status, 201);
  const res = await allowed.call('POST', '/v1/chat/completions', { json: { model: 'inside/m-chat', messages: [{ role: 'user', content: 'hello' }] } });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.body.choices[0].message.content, 'from inside');
  const checked = await allowed.call('POST', `/v1/model-providers/${created.body.id}/test`);
  // The stand-in serves no GET /models: a 404 from it, so the check did reach it.
  t.like(checked.body, { ok: false, error: { code: 'wrong_path' } });
});
