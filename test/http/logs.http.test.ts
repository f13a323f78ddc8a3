import anyTest, { type TestFn } from 'ava';
import { settledDocument, uploadFiles } from '../helpers/documents.ts';
import { captureLogs, LEVEL, type LogLine } from '../helpers/logs.ts';
import { loopbackChatEnv, startChatServer } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

const test = anyTest as TestFn<{ server: TestServer; logs: ReturnType<typeof captureLogs> }>;

test.before(async (t) => {
  const logs = captureLogs();
  t.context.logs = logs;
  t.context.server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '1000' }, { logger: logs.logger });
});
test.after.always((t) => t.context.server?.close());

const accessLine = (requestId: string) => (line: LogLine) => line.requestId === requestId && (line.msg === 'request' || line.msg === 'request aborted by the client');

test.serial('one access line per request: request id, key id, method, route template, status, latency', async (t) => {
  const { server, logs } = t.context;
  const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'logged' } });
  const res = await server.call('POST', `/v1/knowledge-bases/${kb.id}/search`, { json: { query: 'anything' }, headers: { 'x-request-id': 'trace-search-1' } });
  t.is(res.status, 200);
  const line = await logs.waitFor(accessLine('trace-search-1'));
  t.is(line.level, LEVEL.info);
  t.like(line, { service: 'kbqa', method: 'POST', route: '/v1/knowledge-bases/:kb_id/search', status: 200 });
  t.regex(line.keyId, /^key_admin/);
  t.is(typeof line.ms, 'number');
  t.true(line.ms >= 0);
  t.is(line.path, undefined, 'the template, not the path with its ids');
  t.is(logs.lines.filter(accessLine('trace-search-1')).length, 1);

  // A refused key: no key id, the status it got.
  await server.call('GET', '/v1/knowledge-bases', { key: 'kbqa-wrong-secret-0123456789', headers: { 'x-request-id': 'trace-401' } });
  t.like(await logs.waitFor(accessLine('trace-401')), { level: LEVEL.info, keyId: null, route: '/v1/knowledge-bases', status: 401 });
  // No route: the path instead of a template.
  await server.call('GET', '/v1/nowhere', { headers: { 'x-request-id': 'trace-404' } });
  t.like(await logs.waitFor(accessLine('trace-404')), { route: null, path: '/v1/nowhere', status: 404 });
});

test.serial('probes and scrapes are logged at debug', async (t) => {
  const { server, logs } = t.context;
  for (const path of ['/healthz', '/readyz', '/metrics']) {
    await server.call('GET', path, { key: null, headers: { 'x-request-id': `probe${path.replace('/', '-')}` } });
    t.like(await logs.waitFor(accessLine(`probe${path.replace('/', '-')}`)), { level: LEVEL.debug, route: path, status: 200 });
  }
});

test.serial('no log line carries a bearer secret', async (t) => {
  const { server, logs } = t.context;
  const { body: created } = await server.call('POST', '/v1/api-keys', { json: { name: 'logged key', scopes: ['read'] } });
  const secret = created.secret ?? created.key;
  t.is(typeof secret, 'string');
  await server.call('GET', '/v1/models', { key: secret, headers: { 'x-request-id': 'trace-new-key' } });
  t.like(await logs.waitFor(accessLine('trace-new-key')), { keyId: created.id, status: 200 });
  await server.call('GET', '/v1/models', { key: 'kbqa-made-up-secret-abcdef', headers: { 'x-request-id': 'trace-made-up' } });
  await logs.waitFor(accessLine('trace-made-up'));
  const text = logs.text();
  for (const s of [ADMIN_KEY, secret, 'kbqa-made-up-secret-abcdef']) t.false(text.includes(s));
});

test.serial('a 5xx logs at error with the stack and the request id, besides its access line', async (t) => {
  const { server, logs } = t.context;
  const kbs = server.runtime.services.knowledgeBases;
  const list = kbs.list;
  kbs.list = async () => {
    throw new Error('boom from a test');
  };
  try {
    const res = await server.call('GET', '/v1/knowledge-bases', { headers: { 'x-request-id': 'trace-500' } });
    t.is(res.status, 500);
  } finally {
    kbs.list = list;
  }
  const failed = await logs.waitFor((l) => l.requestId === 'trace-500' && l.level === LEVEL.error);
  t.is(failed.msg, 'request failed');
  t.regex(failed.err.stack, /boom from a test/);
  t.like(await logs.waitFor(accessLine('trace-500')), { level: LEVEL.info, status: 500 });
});

test.serial('a failed document is one warn line with its code, ids and stage, without a stack', async (t) => {
  const { server, logs } = t.context;
  const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'failing' } });
  const res = await uploadFiles(server, kb.id, [{ name: 'blank.txt', bytes: ' \n\n ' }]);
  const id = res.body.data[0].id as string;
  t.like(await settledDocument(server, kb.id, id), { status: 'failed', error: { code: 'empty' } });
  const line = await logs.waitFor((l) => l.msg === 'document failed' && l.documentId === id);
  t.like(line, { level: LEVEL.warn, knowledgeBaseId: kb.id, stage: 'parsing', code: 'empty' });
  t.is(typeof line.reason, 'string');
  t.is(line.err, undefined);
  t.false(JSON.stringify(line).includes('    at '));
});

const chat = (server: TestServer, requestId: string, stream: boolean, signal: AbortSignal) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify({ model: 'loop-chat', stream, messages: [{ role: 'user', content: 'talk' }] }),
    signal,
  });

/** Nothing at warn or above, and no stack anywhere, once the dust has settled. */
async function quiet(t: { deepEqual(a: unknown, b: unknown, m?: string): void; false(a: boolean): void }, logs: ReturnType<typeof captureLogs>) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.deepEqual(logs.lines.filter((l) => l.level >= LEVEL.warn), [], 'no warn or error line');
  t.false(logs.text().includes('"stack"'));
}

test('a client that leaves mid chat stream is logged at info, with its request id and no stack', async (t) => {
  const provider = await startChatServer({ pieces: Array.from({ length: 50 }, (_, i) => `word${i} `), chunkDelayMs: 50 });
  const logs = captureLogs();
  const server = await startServer(loopbackChatEnv(provider.baseUrl), { logger: logs.logger });
  try {
    const aborter = new AbortController();
    const res = await chat(server, 'trace-left-stream', true, aborter.signal);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('word1 ')) text += new TextDecoder().decode((await reader.read()).value);
    aborter.abort();
    // The headers (200) went out, then the client left.
    const left = await logs.waitFor(accessLine('trace-left-stream'));
    t.like(left, { level: LEVEL.info, msg: 'request aborted by the client', aborted: true, status: 200, route: '/v1/chat/completions' });
    await provider.untilDisconnects(1);
    await quiet(t, logs);
  } finally {
    await server.close();
    await provider.close();
  }
});

test('a client that gives up before a chat answer is logged at info, not as a failed request', async (t) => {
  const provider = await startChatServer({ stallMs: 10_000 });
  const logs = captureLogs();
  const server = await startServer(loopbackChatEnv(provider.baseUrl), { logger: logs.logger });
  try {
    const aborter = new AbortController();
    const pending = chat(server, 'trace-left-early', false, aborter.signal).catch(() => null);
    await provider.untilRequests(1);
    aborter.abort();
    await pending;
    t.like(await logs.waitFor(accessLine('trace-left-early')), { level: LEVEL.info, aborted: true, status: null });
    await provider.untilDisconnects(1);
    await quiet(t, logs);
  } finally {
    await server.close();
    await provider.close();
  }
});
