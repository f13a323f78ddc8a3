import test from 'ava';
import { captureLogs } from '../helpers/logs.ts';
import { loopbackChatEnv, startProviderServer } from '../helpers/provider-servers.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * A provider that echoes the API key in its error (issue 42, item 10): its 4xx message is relayed
 * to the caller (a read key here, an anonymous landing-page visitor there), and its 5xx cause goes
 * to the log. Neither may carry the key, in any encoding, whether the provider is the deployment's
 * (OPENAI_API_KEY) or a workspace's.
 */
type Provider = Awaited<ReturnType<typeof startProviderServer>>;

const ENV_KEY = 'sk-deployment-Key-0123456789abcdef';
const WORKSPACE_KEY = 'sk-workspace-Key-fedcba9876543210';
const b64 = (text: string) => Buffer.from(text).toString('base64');
/** What an echoing provider says: the key verbatim, upper case, base64'd alone and inside a header line. */
const echoOf = (key: string) => `invalid request for key ${key} (${key.toUpperCase()}, ${b64(key)}, ${b64(`Authorization: Bearer ${key}`)})`;
const formsOf = (key: string) => [key, key.toUpperCase(), b64(key), b64(`Authorization: Bearer ${key}`).slice(24, 48), key.slice(3, 20)];

let server: TestServer;
let reader: string;
let rejecting: Provider;
let rejectingWorkspace: Provider;
let failing: Provider;
const logs = captureLogs();

test.before(async () => {
  rejecting = await startProviderServer({ failFirst: 1e6, failure: { status: 400, body: { error: { message: echoOf(ENV_KEY) } } } });
  rejectingWorkspace = await startProviderServer({ failFirst: 1e6, failure: { status: 422, body: { detail: [{ msg: echoOf(WORKSPACE_KEY) }] } } });
  failing = await startProviderServer({ failFirst: 1e6, failure: { status: 500, body: { error: { message: echoOf(WORKSPACE_KEY) } } } });
  // The workspace providers are on loopback, which the operator must allow (item 21).
  server = await startServer(loopbackChatEnv(rejecting.baseUrl, { OPENAI_API_KEY: ENV_KEY, KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1', KBQA_RATE_LIMIT_PER_MINUTE: '0' }), { logger: logs.logger });
  for (const [name, provider] of [['acme', rejectingWorkspace], ['down', failing]] as const) {
    const created = await server.call('POST', '/v1/model-providers', { json: { name, base_url: provider.baseUrl, api_key: WORKSPACE_KEY, models: [{ id: 'm-chat', type: 'chat' }] } });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  }
  reader = (await server.call('POST', '/v1/api-keys', { json: { name: 'reader', scopes: ['read'] } })).body.secret;
});
test.after.always(async () => {
  await server?.close();
  await Promise.all([rejecting, rejectingWorkspace, failing].map((p) => p?.close()));
});

const chat = (model: string, stream = false) => server.call('POST', '/v1/chat/completions', { key: reader, json: { model, stream, messages: [{ role: 'user', content: 'hello' }] } });

function assertNoKey(t: import('ava').ExecutionContext, text: string, key: string, where: string) {
  for (const form of formsOf(key)) t.false(text.toLowerCase().includes(form.toLowerCase()), `${where} holds ${form}: ${text.slice(0, 400)}`);
}

test.serial('the deployment provider’s 400 reaches a read key with its message, the key scrubbed', async (t) => {
  const res = await chat('loop-chat');
  t.is(res.status, 422, JSON.stringify(res.body));
  t.is(res.body.error.code, 'provider_rejected_request');
  t.regex(res.body.error.message, /invalid request for key \[secret\]/);
  assertNoKey(t, JSON.stringify(res.body), ENV_KEY, 'the answer');
});

test.serial('a workspace provider’s 422 (FastAPI’s detail list), plain and streamed, comes back scrubbed', async (t) => {
  const plain = await chat('acme/m-chat');
  t.is(plain.status, 422, JSON.stringify(plain.body));
  t.regex(plain.body.error.message, /\[secret\]/);
  assertNoKey(t, JSON.stringify(plain.body), WORKSPACE_KEY, 'the answer');
  const streamed = await chat('acme/m-chat', true);
  assertNoKey(t, typeof streamed.body === 'string' ? streamed.body : JSON.stringify(streamed.body), WORKSPACE_KEY, 'the stream');
});

test.serial('a provider’s 5xx that echoes the key is logged without it', async (t) => {
  const res = await chat('down/m-chat');
  t.is(res.status, 502, JSON.stringify(res.body));
  t.is(res.body.error.code, 'provider_unavailable');
  assertNoKey(t, JSON.stringify(res.body), WORKSPACE_KEY, 'the answer');
  // One line, no stack (provider-log.ts), with what the provider said.
  await logs.waitFor((line) => line.msg === 'provider call failed');
  t.true(logs.text().includes('[secret]'), 'the provider’s message is logged, scrubbed');
  assertNoKey(t, logs.text(), WORKSPACE_KEY, 'the log');
  assertNoKey(t, logs.text(), ENV_KEY, 'the log');
});
