import anyTest, { type TestFn } from 'ava';
import { startServer, type TestServer } from '../helpers/server.ts';

const test = anyTest as TestFn<{ server: TestServer }>;
const APP = 'https://app.example.com';
const EXPOSED = ['x-request-id', 'x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests', 'retry-after', 'etag'];

test.before(async (t) => void (t.context.server = await startServer({ KBQA_CORS_ORIGINS: `${APP}/, http://localhost:5173`, KBQA_RATE_LIMIT_PER_MINUTE: '1000' })));
test.after.always((t) => t.context.server?.close());

const preflight = (server: TestServer, path: string, origin: string, method = 'POST') =>
  fetch(server.url + path, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
  });

const corsHeaders = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

const listOf = (value: string | null) => (value ?? '').split(',').map((s) => s.trim().toLowerCase());

test.serial('a preflight from an allowed origin is answered 204 for an authenticated route, without a key', async (t) => {
  const { server } = t.context;
  const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'cors' } });
  for (const [path, method] of [
    [`/v1/knowledge-bases/${kb.id}/search`, 'POST'],
    [`/v1/knowledge-bases/${kb.id}`, 'PATCH'],
    ['/v1/chat/completions', 'POST'],
    ['/v1/models', 'GET'],
  ] as const) {
    const res = await preflight(server, path, APP, method);
    t.is(res.status, 204, path);
    t.is(res.headers.get('access-control-allow-origin'), APP);
    t.true(listOf(res.headers.get('access-control-allow-methods')).includes(method.toLowerCase()), method);
    const allowed = listOf(res.headers.get('access-control-allow-headers'));
    for (const name of ['authorization', 'content-type', 'idempotency-key', 'if-match', 'x-request-id']) t.true(allowed.includes(name), name);
    t.is(res.headers.get('access-control-max-age'), '600');
    t.true(listOf(res.headers.get('vary')).includes('origin'));
    t.truthy(res.headers.get('x-request-id'));
  }
  // The other listed origin too (the configured trailing slash is not part of an origin).
  t.is((await preflight(server, '/v1/models', 'http://localhost:5173', 'GET')).headers.get('access-control-allow-origin'), 'http://localhost:5173');
});

test.serial('an origin not in the list gets no CORS header, on a preflight or a request', async (t) => {
  const { server } = t.context;
  const denied = await preflight(server, '/v1/knowledge-bases', 'https://evil.example.net');
  t.not(denied.status, 204);
  t.deepEqual(corsHeaders(denied.headers), []);
  const request = await server.call('GET', '/v1/models', { headers: { origin: 'https://evil.example.net' } });
  t.is(request.status, 200);
  t.deepEqual(corsHeaders(request.headers), []);
  // Nor does a request without an Origin (curl, servers).
  t.deepEqual(corsHeaders((await server.call('GET', '/v1/models')).headers), []);
});

test.serial('responses expose the headers clients read, on a 200 and on errors (401, 429, 500)', async (t) => {
  const { server } = t.context;
  const check = (headers: Headers, what: string) => {
    t.is(headers.get('access-control-allow-origin'), APP, what);
    t.deepEqual(listOf(headers.get('access-control-expose-headers')).sort(), [...EXPOSED].sort(), what);
  };
  const { body: kb, headers: created } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'exposed' }, headers: { origin: APP } });
  check(created, '201');
  t.truthy(created.get('etag'));
  const ok = await server.call('GET', `/v1/knowledge-bases/${kb.id}`, { headers: { origin: APP } });
  t.is(ok.status, 200);
  check(ok.headers, '200');

  const unauthorized = await server.call('GET', '/v1/knowledge-bases', { key: 'kbqa-not-a-key', headers: { origin: APP } });
  t.is(unauthorized.status, 401);
  check(unauthorized.headers, '401');

  const { kbs, list } = { kbs: server.runtime.services.knowledgeBases, list: server.runtime.services.knowledgeBases.list };
  kbs.list = async () => {
    throw new Error('boom');
  };
  try {
    const failed = await server.call('GET', '/v1/knowledge-bases', { headers: { origin: APP } });
    t.is(failed.status, 500);
    check(failed.headers, '500');
  } finally {
    kbs.list = list;
  }

  const limited = await startServer({ KBQA_CORS_ORIGINS: APP, KBQA_RATE_LIMIT_PER_MINUTE: '1' });
  try {
    t.is((await limited.call('GET', '/v1/models', { headers: { origin: APP } })).status, 200);
    const refused = await limited.call('GET', '/v1/models', { headers: { origin: APP } });
    t.is(refused.status, 429);
    check(refused.headers, '429');
    t.truthy(refused.headers.get('retry-after'));
  } finally {
    await limited.close();
  }
});

test('CORS is off by default: no header, and OPTIONS is no route', async (t) => {
  const server = await startServer();
  try {
    const request = await server.call('GET', '/v1/models', { headers: { origin: APP } });
    t.is(request.status, 200);
    t.deepEqual(corsHeaders(request.headers), []);
    t.is(request.headers.get('vary'), null);
    const res = await preflight(server, '/v1/models', APP, 'GET');
    t.is(res.status, 405);
    t.deepEqual(corsHeaders(res.headers), []);
  } finally {
    await server.close();
  }
});

test('KBQA_CORS_ORIGINS=* allows any origin', async (t) => {
  const server = await startServer({ KBQA_CORS_ORIGINS: '*' });
  try {
    const res = await preflight(server, '/v1/knowledge-bases', 'https://anywhere.example.org');
    t.is(res.status, 204);
    t.is(res.headers.get('access-control-allow-origin'), '*');
    const unauthorized = await server.call('GET', '/v1/knowledge-bases', { key: null, headers: { origin: 'https://anywhere.example.org' } });
    t.is(unauthorized.status, 401);
    t.is(unauthorized.headers.get('access-control-allow-origin'), '*');
  } finally {
    await server.close();
  }
});
