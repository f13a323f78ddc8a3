import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { WorkflowNode } from '../../schemas/workflow.ts';
import { createCodeRunner } from '../../src/app/workflow-engine/code-runner.ts';
import { sendHttpRequest } from '../../src/app/workflow-engine/http-client.ts';
import { parseHostAllowList } from '../../src/lib/address-policy.ts';
import { validateGraph } from '../../src/domain/workflow/graph.ts';
import { code } from '../../src/domain/workflow/nodes/code.ts';
import { httpRequest, outputsOf } from '../../src/domain/workflow/nodes/http-request.ts';
import { nodeServices } from '../helpers/node-services.ts';
import { type HttpRequest, NodeFailure, type NodeServices, type RunScope } from '../../src/domain/workflow/nodes/node-type.ts';

const scope = (outputs: Record<string, Record<string, unknown>> = {}): RunScope => ({ workspaceId: 'ws_1', inputs: {}, outputs: new Map(Object.entries(outputs)), nodeTypes: new Map() });
const signal = new AbortController().signal;
const sent: HttpRequest[] = [];
const services: NodeServices = nodeServices({
  runCode: (request) => createCodeRunner().run(request),
  httpRequest: async (request) => {
    sent.push(request);
    return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'set-cookie': ['a=b'] }, body: '{"ok":true}' };
  },
});

test('code: a one-reference input passes its value as is; a mixed template renders text', async (t) => {
  const config = code.config.parse({ code: 'return [Array.isArray(inputs.list), inputs.list.length, inputs.text]', inputs: { list: '{{ s.items }}', text: 'n={{s.n}}' } });
  const outputs = await code.run({ config, scope: scope({ s: { items: [1, 2, 3], n: 7 } }), services, signal });
  t.deepEqual(outputs, { result: [true, 3, 'n=7'] });
});

test('code: a sandbox fault is a NodeFailure with its code', async (t) => {
  const config = code.config.parse({ code: 'throw new RangeError("nope")' });
  const error = await t.throwsAsync(Promise.resolve(code.run({ config, scope: scope(), services, signal })), { instanceOf: NodeFailure });
  t.is(error?.code, 'code_error');
  t.regex(error!.message, /RangeError: nope/);
});

test('code: config limits and input names are checked, naming the field', (t) => {
  t.false(code.config.safeParse({ code: 'return 1', time_limit_ms: 60_000 }).success);
  t.false(code.config.safeParse({ code: '' }).success);
  const badName = code.config.safeParse({ code: 'return 1', inputs: { 'not-an-identifier': 'x' } });
  t.false(badName.success);
});

test('http_request: templates render, json and form bodies are encoded, content-type follows the body', async (t) => {
  sent.length = 0;
  const at = scope({ s: { q: 'a "quoted" word', id: 7 } });
  const json = httpRequest.config.parse({ method: 'POST', url: 'https://api.example/items/{{s.id}}', headers: { 'x-q': '{{s.q}}' }, body: '{"id": {{s.id}}}' });
  const outputs = await httpRequest.run({ config: json, scope: at, services, signal });
  t.deepEqual(outputs, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"ok":true}', json: { ok: true } });
  t.is(sent[0]!.url, 'https://api.example/items/7');
  t.is(sent[0]!.headers['content-type'], 'application/json');
  t.is(sent[0]!.body, '{"id": 7}');
  const form = httpRequest.config.parse({ method: 'POST', url: 'https://api.example/', body: '{"id": {{s.id}}, "name": "x y"}', body_type: 'form' });
  await httpRequest.run({ config: form, scope: at, services, signal });
  t.is(sent[1]!.body, 'id=7&name=x+y');
  t.is(sent[1]!.headers['content-type'], 'application/x-www-form-urlencoded');
});

test('http_request: a body that is not JSON, or a header value with a line break, fails the node', async (t) => {
  const at = scope({ s: { evil: 'x\r\nX-Injected: 1' } });
  const badBody = httpRequest.config.parse({ method: 'POST', url: 'https://a.example/', body: 'not json' });
  t.is((await t.throwsAsync(Promise.resolve(httpRequest.run({ config: badBody, scope: at, services, signal }))))?.message.includes('not JSON'), true);
  const injected = httpRequest.config.parse({ method: 'GET', url: 'https://a.example/', headers: { 'x-a': '{{s.evil}}' } });
  const error = await t.throwsAsync(Promise.resolve(httpRequest.run({ config: injected, scope: at, services, signal })), { instanceOf: NodeFailure });
  t.is(error?.code, 'invalid_request');
});

test('http_request: config refuses framing headers, a header both plain and secret, a GET body', (t) => {
  t.false(httpRequest.config.safeParse({ method: 'GET', url: 'https://a/', headers: { Host: 'internal' } }).success);
  t.false(httpRequest.config.safeParse({ method: 'GET', url: 'https://a/', headers: { Authorization: 'x' }, secret_headers: { authorization: 'key' } }).success);
  t.false(httpRequest.config.safeParse({ method: 'GET', url: 'https://a/', body: '{}' }).success);
  t.false(httpRequest.config.safeParse({ method: 'TRACE', url: 'https://a/' }).success);
});

test('http_request: json is null unless the response says JSON and parses', (t) => {
  t.is(outputsOf({ status: 200, headers: { 'content-type': 'text/plain' }, body: '{"a":1}' }).json, null);
  t.is(outputsOf({ status: 200, headers: { 'content-type': 'application/json' }, body: 'oops' }).json, null);
  t.deepEqual(outputsOf({ status: 200, headers: { 'content-type': 'application/problem+json' }, body: '{"a":1}' }).json, { a: 1 });
});

test('the graph checker names the node and the map entry of a bad reference', (t) => {
  const graph = {
    nodes: [
      WorkflowNode.parse({ id: 'start', type: 'start', config: { inputs: [{ name: 'q', type: 'string' }] } }),
      WorkflowNode.parse({ id: 'call', type: 'http_request', config: { method: 'GET', url: 'https://a/{{start.q}}', headers: { 'x-a': '{{start.nope}}' } } }),
      WorkflowNode.parse({ id: 'answer', type: 'direct_reply', config: { template: '{{call.body}}' } }),
    ],
    edges: [{ from: 'start', to: 'call' }, { from: 'call', to: 'answer' }],
  };
  const faults = validateGraph(graph);
  t.is(faults.length, 1);
  t.is(faults[0]!.node, 'call');
  t.regex(faults[0]!.message, /headers\.x-a/);
});

let upstream: Server;
let hits = 0;
test.before(async () => {
  upstream = createServer((req, res) => {
    hits++;
    if (req.url === '/flaky' && hits % 3 !== 0) return void res.writeHead(503).end('busy');
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`auth was ${req.headers.authorization}`);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
});
test.after.always(() => upstream?.close());

const request = (path: string, extra: Partial<HttpRequest> = {}): HttpRequest => ({
  workspaceId: 'ws_1', method: 'GET', url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}${path}`,
  headers: {}, secretHeaders: {}, timeoutMs: 2000, maxResponseBytes: 10_000, retries: 0, ...extra,
});
const allow = parseHostAllowList(['127.0.0.1']);
const secrets = { usable: async (_ws: string, name: string) => (name === 'token' ? { value: 'Bearer tok-123456789', allowedHosts: ['127.0.0.1'] } : undefined) };

test.serial('retries a 5xx with backoff; without retries the 5xx is the answer', async (t) => {
  hits = 0;
  t.is((await sendHttpRequest({ allow }, request('/flaky'), signal)).status, 503);
  hits = 0;
  const retried = await sendHttpRequest({ allow }, request('/flaky', { retries: 3 }), signal);
  t.is(retried.status, 200);
  t.is(hits, 3);
});

test.serial('secret headers are sent, and scrubbed from what comes back; a missing secret is named', async (t) => {
  const response = await sendHttpRequest({ allow, secrets }, request('/echo', { secretHeaders: { authorization: 'token' } }), signal);
  t.is(response.body, 'auth was [secret]');
  const error = await t.throwsAsync(sendHttpRequest({ allow, secrets }, request('/echo', { secretHeaders: { authorization: 'other' } }), signal), { instanceOf: NodeFailure });
  t.is(error?.code, 'secret_not_found');
  t.regex(error!.message, /'other'/);
});

test.serial('without the allow-list the local server is refused as a node failure', async (t) => {
  const error = await t.throwsAsync(sendHttpRequest({}, request('/echo'), signal), { instanceOf: NodeFailure });
  t.is(error?.code, 'http_forbidden_address');
});
