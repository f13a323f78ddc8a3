import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * The code and http_request nodes through the API: created as any workflow is, run blocking. The
 * allow-list lets the runner reach the local system under test (127.0.0.1 only: 127.0.0.2 and the
 * rest stay refused).
 */
let server: TestServer;
let upstream: Server;
let upstreamUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const SECRET = 'sk-live-0123456789-very-secret';

test.before(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      if (req.url === '/echo-headers') return void res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'a=b' }).end(JSON.stringify(req.headers));
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=1' }).end(JSON.stringify({ order: 'A-17', status: 'shipped', items: [3, 4] }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  server = await startServer({ KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1' });
  const stored = await server.call('POST', '/v1/secrets', { json: { name: 'orders-api-key', value: SECRET, allowed_hosts: ['127.0.0.1'] } });
  if (stored.status !== 201 && stored.status !== 200) throw new Error(`secret not stored: ${stored.status} ${JSON.stringify(stored.body)}`);
});
test.after.always(async () => {
  await server?.close();
  upstream?.closeAllConnections();
  upstream?.close();
});

type Node = { id: string; type: string; config: Record<string, unknown>; timeout_ms?: number };
const start: Node = { id: 'start', type: 'start', config: { inputs: [{ name: 'order', type: 'string', required: true }] } };
const reply = (template: string): Node => ({ id: 'answer', type: 'direct_reply', config: { template } });
const chain = (nodes: Node[]) => ({ nodes, edges: nodes.slice(1).map((node, i) => ({ from: nodes[i]!.id, to: node.id })) });

async function runGraph(nodes: Node[], inputs: Record<string, unknown> = { order: 'A-17' }) {
  const created = await server.call('POST', '/v1/workflows', { json: { name: 'nodes', graph: chain(nodes) } });
  if (created.status !== 201) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
  const run = await server.call('POST', `/v1/workflows/${created.body.id}/run`, { json: { inputs } });
  return run.body;
}

const lookup = (url: string, extra: Record<string, unknown> = {}): Node => ({
  id: 'lookup',
  type: 'http_request',
  config: { method: 'POST', url, headers: { 'x-order': '{{start.order}}' }, secret_headers: { authorization: 'orders-api-key' }, body: '{"order": "{{start.order}}"}', ...extra },
});

test('http_request → code → reply: the secret reaches the server, the JSON answer feeds the code', async (t) => {
  received.length = 0;
  const shape: Node = { id: 'shape', type: 'code', config: { code: 'function main({ data, status }) { return `${data.order} is ${data.status} (${status}), ${data.items.reduce((a, b) => a + b)} items` }', inputs: { data: '{{lookup.json}}', status: '{{lookup.status}}' } } };
  const run = await runGraph([start, lookup(`${upstreamUrl}/orders`), shape, reply('{{shape.result}}')]);
  t.is(run.status, 'succeeded', JSON.stringify(run.error));
  t.is(run.outputs.answer, 'A-17 is shipped (200), 7 items');
  t.is(received[0]?.headers.authorization, SECRET);
  t.is(received[0]?.headers['x-order'], 'A-17');
  t.deepEqual(JSON.parse(received[0]!.body), { order: 'A-17' });
  const lookupRun = run.node_runs.find((n: { node_id: string }) => n.node_id === 'lookup');
  t.is(lookupRun.outputs.status, 200);
  t.is(lookupRun.outputs.headers['set-cookie'], undefined, 'only a safe subset of response headers');
  t.deepEqual(lookupRun.outputs.json, { order: 'A-17', status: 'shipped', items: [3, 4] });
});

test('the secret is nowhere in the graph, the run, its events or its errors, even when the server echoes it', async (t) => {
  const echoed = await runGraph([start, lookup(`${upstreamUrl}/echo-headers`), reply('{{lookup.body}}')]);
  t.is(echoed.status, 'succeeded', JSON.stringify(echoed.error));
  t.regex(echoed.outputs.answer, /\[secret\]/);
  const failed = await runGraph([start, lookup('http://169.254.169.254/latest/meta-data/'), reply('x')]);
  t.is(failed.status, 'failed');
  const records = [echoed, failed, (await server.call('GET', `/v1/workflow-runs/${echoed.id}`)).body, (await server.call('GET', `/v1/workflows/${echoed.workflow_id}`)).body];
  const events = await server.runtime.store.readAll();
  for (const record of records) t.false(JSON.stringify(record).includes(SECRET));
  t.false(JSON.stringify(events, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)).includes(SECRET), 'the event log holds no secret value');
});

// localhost resolves to the allowed 127.0.0.1 here, so the DNS case is in test/unit/guarded-http.unit.test.ts (no allow-list).
test('SSRF: metadata, private, other loopback, mapped and decimal URLs fail the node with http_forbidden_address', async (t) => {
  for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', `http://127.0.0.2:${new URL(upstreamUrl).port}/orders`, 'http://[::ffff:169.254.169.254]/', 'http://2852039166/']) {
    const run = await runGraph([start, lookup(url), reply('x')]);
    t.is(run.status, 'failed', url);
    t.is(run.error.code, 'http_forbidden_address', url);
    t.is(run.error.node_id, 'lookup');
  }
});

test('a secret that does not exist fails the node, naming the secret', async (t) => {
  const run = await runGraph([start, lookup(`${upstreamUrl}/orders`, { secret_headers: { authorization: 'no-such-secret' } }), reply('x')]);
  t.is(run.error.code, 'secret_not_found');
  t.regex(run.error.message, /no-such-secret/);
});

test('an endless loop fails the code node on its time limit; the server goes on', async (t) => {
  const loop: Node = { id: 'loop', type: 'code', config: { code: 'while (true) {}', time_limit_ms: 200 } };
  const run = await runGraph([start, loop, reply('{{loop.result}}')]);
  t.is(run.status, 'failed');
  t.is(run.error.code, 'code_timeout');
  t.is(run.error.node_id, 'loop');
  const escape: Node = { id: 'escape', type: 'code', config: { code: "return globalThis.constructor.constructor('return process')().env" } };
  const escaped = await runGraph([start, escape, reply('{{escape.result}}')]);
  t.is(escaped.error.code, 'code_error');
  const after = await runGraph([start, { id: 'sum', type: 'code', config: { code: 'return inputs.order.length', inputs: { order: '{{start.order}}' } } }, reply('{{sum.result}}')]);
  t.is(after.outputs.answer, '4');
});

test('graph checks name the node and the field: a bad reference in a code input or an http header', async (t) => {
  const badInput = await server.call('POST', '/v1/workflows', {
    json: { name: 'bad', graph: chain([start, { id: 'c', type: 'code', config: { code: 'return 1', inputs: { x: '{{nowhere.text}}' } } }, reply('{{c.result}}')]) },
  });
  t.is(badInput.status, 400);
  t.regex(JSON.stringify(badInput.body), /inputs\.x/);
  const badHeader = await server.call('POST', '/v1/workflows', { json: { name: 'bad', graph: chain([start, lookup(`${upstreamUrl}/x`, { headers: { host: 'evil' } }), reply('x')]) } });
  t.is(badHeader.status, 400);
});
