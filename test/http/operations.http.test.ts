import anyTest, { type TestFn } from 'ava';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createOperationsApp } from '../../src/http/app.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const test = anyTest as TestFn<{ server: TestServer }>;
test.before(async (t) => void (t.context.server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '1000' })));
test.after.always((t) => t.context.server?.close());

test.serial('healthz and readyz answer without a key; readyz lists every dependency', async (t) => {
  const { call } = t.context.server;
  t.deepEqual((await call('GET', '/healthz', { key: null })).body, { status: 'ok' });
  const ready = await call('GET', '/readyz', { key: null });
  t.is(ready.status, 200);
  t.deepEqual(ready.body, {
    status: 'ready',
    checks: { event_store: 'ok', read_models: 'ok', blob_store: 'ok', vector_index: 'ok', keyword_index: 'ok', parser: 'ok', caught_up: 'ok', projector: 'ok' },
  });
});

test.serial('every response carries x-request-id; a sane incoming one is echoed', async (t) => {
  const { call } = t.context.server;
  const own = await call('GET', '/v1/models', { headers: { 'x-request-id': 'trace-123' } });
  t.is(own.headers.get('x-request-id'), 'trace-123');
  const minted = await call('GET', '/v1/nowhere', { key: null });
  t.regex(minted.headers.get('x-request-id')!, /^req_[0-9a-f]{12}[0-9a-z]{8,}$/);
  t.not(minted.headers.get('x-request-id'), (await call('GET', '/v1/nowhere', { key: null })).headers.get('x-request-id'));
  const hostile = await call('GET', '/v1/models', { headers: { 'x-request-id': 'a b\tc' } });
  t.regex(hostile.headers.get('x-request-id')!, /^req_/);
});

test.serial('unknown routes are 404 and wrong methods 405, in the error shape', async (t) => {
  const { call } = t.context.server;
  const missing = await call('GET', '/v1/nowhere');
  t.is(missing.status, 404);
  t.is(missing.body.error.code, 'route_not_found');
  const wrong = await call('PUT', '/v1/models');
  t.is(wrong.status, 405);
  t.is(wrong.body.error.code, 'method_not_allowed');
  t.is(wrong.headers.get('allow'), 'GET, HEAD');
  const item = await call('POST', '/v1/knowledge-bases/kb_x');
  t.is(item.status, 405);
  t.deepEqual(item.headers.get('allow')!.split(', ').sort(), ['DELETE', 'GET', 'HEAD', 'PATCH']);
});

test.serial('metrics are Prometheus text with request counts and consumer positions', async (t) => {
  const { call } = t.context.server;
  await call('GET', '/v1/models');
  const res = await call('GET', '/metrics', { key: null });
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type')!, /text\/plain/);
  t.regex(res.body, /kbqa_http_requests_total\{method="GET",route="\/v1\/models",status="200"\} \d+/);
  t.regex(res.body, /kbqa_consumer_position\{group="projector"\} \d+/);
  t.regex(res.body, /kbqa_log_head_position \d+/);
});

test.serial('openapi.json describes every /v1 route with its schemas', async (t) => {
  const res = await t.context.server.call('GET', '/v1/openapi.json', { key: null });
  t.is(res.body.openapi, '3.1.0');
  const paths = res.body.paths;
  for (const p of ['/v1/models', '/v1/models/{model}', '/v1/api-keys', '/v1/api-keys/{key_id}', '/v1/knowledge-bases', '/v1/knowledge-bases/{kb_id}']) {
    t.truthy(paths[p], p);
  }
  const create = paths['/v1/knowledge-bases'].post;
  t.deepEqual(create.requestBody.content['application/json'].schema.required, ['name']);
  t.truthy(create.requestBody.content['application/json'].schema.properties.settings);
  t.is(create['x-required-scope'], 'write');
  t.truthy(paths['/v1/knowledge-bases'].get.parameters.find((p: any) => p.name === 'limit'));
});

test.serial('GET /v1 answers without a key where the OpenAPI document is, and that address serves it', async (t) => {
  const { call } = t.context.server;
  for (const path of ['/v1', '/v1/']) {
    const index = await call('GET', path, { key: null });
    t.is(index.status, 200, path);
    t.deepEqual(index.body, { object: 'api', version: '0.1.0', openapi_url: '/v1/openapi.json' });
  }
  const described = await call('GET', (await call('GET', '/v1', { key: null })).body.openapi_url, { key: null });
  t.is(described.body.openapi, '3.1.0');
  t.truthy(described.body.paths['/v1'].get);
});

test.serial('rate limit: 429 with retry-after and x-ratelimit headers once the bucket is empty', async (t) => {
  const server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '3' });
  try {
    const seen: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await server.call('GET', '/v1/models');
      seen.push(last.status);
    }
    t.deepEqual(seen, [200, 200, 200, 429]);
    t.is(last!.body.error.type, 'rate_limit_error');
    t.is(last!.headers.get('x-ratelimit-limit-requests'), '3');
    t.is(last!.headers.get('x-ratelimit-remaining-requests'), '0');
    t.true(Number(last!.headers.get('retry-after')) >= 1);
  } finally {
    await server.close();
  }
});

test('a role that serves no API (relay, worker, projector) answers its operators and refuses the rest', async (t) => {
  const app = createOperationsApp({
    metrics: createMetrics({ consumers: () => ({ indexer: 41n }), logHead: async () => 42n }),
    readiness: { event_store: async () => {}, relay: async () => Promise.reject(new Error('relay is 20000 positions behind the log')) },
    version: 'test',
    onServerError: () => {},
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const ready = await fetch(`${url}/readyz`);
    t.is(ready.status, 503);
    t.deepEqual(await ready.json(), { status: 'not_ready', checks: { event_store: 'ok', relay: 'relay is 20000 positions behind the log' } });
    t.is((await fetch(`${url}/healthz`)).status, 200);
    t.regex(await (await fetch(`${url}/metrics`)).text(), /kbqa_consumer_position\{group="indexer"\} 41/);
    const api = await fetch(`${url}/v1/models`);
    t.is(api.status, 404);
    t.regex(((await api.json()) as { error: { message: string } }).error.message, /the API is served by the api role/);
  } finally {
    server.close();
  }
});
