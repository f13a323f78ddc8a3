import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * A secret goes only where it names (issue 42, item 1). Before, any write key (even one limited to
 * a knowledge base) could point an http_request node's secret header at a host it chose and read
 * the value back, base64'd or upper-cased past the exact-echo scrubbing.
 */
let server: TestServer;
let echo: Server;
let echoUrl: string;
let writer: string;
const received: IncomingHttpHeaders[] = [];
const SECRET = 'sk-live-Destinations-0123456789';
const b64 = (text: string) => Buffer.from(text).toString('base64');

test.before(async () => {
  // Answers with the authorization it was sent, in the encodings an exfiltrating flow would ask for.
  echo = createServer((req, res) => {
    received.push(req.headers);
    const auth = req.headers.authorization ?? '';
    if (req.url === '/hop') return void res.writeHead(302, { location: '/echo' }).end();
    res.writeHead(200, { 'content-type': 'application/json', 'x-echo': b64(auth) });
    res.end(JSON.stringify({ b64: b64(auth), upper: auth.toUpperCase(), hex: Buffer.from(auth).toString('hex'), wrapped: b64(`{"key":"${auth}"}`), escaped: [...auth].map((c, i) => (i === 3 ? `\\u00${c.charCodeAt(0).toString(16)}` : c)).join('') }).replace(/\\\\u/g, '\\u'));
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  server = await startServer({ KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1' });
  const kb = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'A' } });
  writer = (await server.call('POST', '/v1/api-keys', { json: { name: 'writer of A', scopes: ['write'], knowledge_base_ids: [kb.body.id] } })).body.secret;
});
test.after.always(async () => {
  await server?.close();
  echo?.closeAllConnections();
  echo?.close();
});

type Node = { id: string; type: string; config: Record<string, unknown> };
const graph = (url: string, secret: string) => {
  const nodes: Node[] = [
    { id: 'start', type: 'start', config: { inputs: [] } },
    { id: 'call', type: 'http_request', config: { method: 'GET', url, secret_headers: { authorization: secret } } },
    { id: 'answer', type: 'direct_reply', config: { template: '{{call.body}} {{call.headers}} {{call.json}}' } },
  ];
  return { nodes, edges: [{ from: 'start', to: 'call' }, { from: 'call', to: 'answer' }] };
};

async function runAs(key: string, url: string, secret: string) {
  const created = await server.call('POST', '/v1/workflows', { key, json: { name: `exfiltrate ${secret}`, graph: graph(url, secret) } });
  if (created.status !== 201) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
  const run = (await server.call('POST', `/v1/workflows/${created.body.id}/run`, { key, json: { inputs: {} } })).body;
  const trace = (await server.call('GET', `/v1/workflow-runs/${run.id}/trace`, { key })).body;
  return { run, trace };
}

const store = async (name: string, extra: Record<string, unknown> = {}) => {
  const res = await server.call('POST', '/v1/secrets', { json: { name, value: SECRET, ...extra } });
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

/** Neither the value nor an encoding of it anywhere: the run, its trace, the event log. */
async function assertNoLeak(t: import('ava').ExecutionContext, ...records: unknown[]) {
  const events = JSON.stringify(await server.runtime.store.readAll(), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  const text = JSON.stringify(records);
  for (const form of [SECRET, SECRET.toUpperCase(), b64(SECRET), Buffer.from(SECRET).toString('hex'), b64(`{"key":"${SECRET}"}`).slice(12, 30), 'Destinations-0123']) {
    t.false(text.toLowerCase().includes(form.toLowerCase()), `the run or trace holds ${form}`);
    t.false(events.toLowerCase().includes(form.toLowerCase()), `the event log holds ${form}`);
  }
}

test.serial('a secret stored without allowed_hosts is sent nowhere: the write key’s node fails naming the setting', async (t) => {
  await store('legacy');
  received.length = 0;
  const { run, trace } = await runAs(writer, `${echoUrl}/echo`, 'legacy');
  t.is(run.status, 'failed');
  t.is(run.error.code, 'secret_destination_refused');
  t.regex(run.error.message, /allowed_hosts/);
  t.regex(run.error.message, /PATCH \/v1\/secrets\/legacy/);
  t.is(received.length, 0, 'not a byte reached the server');
  await assertNoLeak(t, run, trace);
});

test.serial('a secret goes only to its allowed hosts: another host the operator allows is refused before anything is sent', async (t) => {
  const stored = await store('orders', { allowed_hosts: ['api.example.com', '*.Example.org'] });
  t.deepEqual(stored.allowed_hosts, ['api.example.com', '*.example.org']);
  received.length = 0;
  const { run, trace } = await runAs(writer, `${echoUrl}/echo`, 'orders');
  t.is(run.error?.code, 'secret_destination_refused');
  t.regex(run.error.message, /may not be sent to 127\.0\.0\.1/);
  t.is(received.length, 0);
  await assertNoLeak(t, run, trace);
});

test.serial('to an allowed host the secret is sent, and every encoding the server echoes comes back scrubbed', async (t) => {
  await store('echo-ok', { allowed_hosts: ['127.0.0.1'] });
  received.length = 0;
  const { run, trace } = await runAs(writer, `${echoUrl}/hop`, 'echo-ok');
  t.is(run.status, 'succeeded', JSON.stringify(run.error));
  t.is(received.at(-1)?.authorization, SECRET, 'a same-origin redirect keeps it: the host is checked again');
  t.regex(run.outputs.answer, /\[secret\]/);
  await assertNoLeak(t, run, trace);
});

test.serial('admins change where a secret may go; a write key cannot', async (t) => {
  await store('rotating', { allowed_hosts: ['api.example.com'] });
  const refused = await server.call('PATCH', '/v1/secrets/rotating', { key: writer, json: { allowed_hosts: ['127.0.0.1'] } });
  t.is(refused.status, 403);
  const bad = await server.call('PATCH', '/v1/secrets/rotating', { json: { allowed_hosts: ['https://api.example.com/'] } });
  t.is(bad.status, 400);
  t.is(bad.body.error.param, 'allowed_hosts.0');
  const patched = await server.call('PATCH', '/v1/secrets/rotating', { json: { allowed_hosts: ['127.0.0.1'] } });
  t.is(patched.status, 200);
  t.like(patched.body, { name: 'rotating', allowed_hosts: ['127.0.0.1'] });
  const listed = await server.call('GET', '/v1/secrets');
  t.deepEqual(listed.body.data.find((s: { name: string }) => s.name === 'rotating').allowed_hosts, ['127.0.0.1']);
  t.is((await runAs(writer, `${echoUrl}/echo`, 'rotating')).run.status, 'succeeded');
  const missing = await server.call('PATCH', '/v1/secrets/nope', { json: { allowed_hosts: [] } });
  t.is(missing.status, 404);
});
