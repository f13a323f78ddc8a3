import anyTest, { type TestFn } from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_FILTER_DEPTH, MAX_FILTER_NODES } from '../../schemas/http/filter.ts';
import { MAX_JSON_DEPTH } from '../../src/http/json-shape.ts';
import { postFile, uploadFiles } from '../helpers/documents.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// Input bounds (issue 18, part 4): recursive structures are measured before validation recurses,
// limits are the documented ones, and bodies are UTF-8 or refused. Each case failed before the fix.

const test = anyTest as TestFn<{ server: TestServer; kbId: string }>;
test.before(async (t) => {
  t.context.server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0' });
  t.context.kbId = (await t.context.server.call('POST', '/v1/knowledge-bases', { json: { name: 'bounds' } })).body.id;
});
test.after.always((t) => t.context.server?.close());

/** A filter `depth` levels deep: an `eq` inside depth − 1 `and`s (built without recursion). */
function nested(depth: number): Record<string, unknown> {
  let filter: Record<string, unknown> = { type: 'eq', key: 'topic', value: 'geology' };
  for (let level = 1; level < depth; level++) filter = { type: 'and', filters: [filter] };
  return filter;
}

/** Within every per-node bound (100 filters an `and`) yet more nodes than a filter may hold. */
const wide = () => ({
  type: 'or',
  filters: Array.from({ length: 3 }, () => ({ type: 'and', filters: Array.from({ length: 100 }, (_, i) => ({ type: 'eq', key: 'n', value: i })) })),
});

/** Each route that takes a filter: where its filter goes in the body, and the param that names it. */
const filterRoutes = [
  { name: '/v1/search', path: () => '/v1/search', body: (kb: string, f: unknown) => ({ knowledge_base_id: kb, query: 'volcano', filter: f }), param: 'filter' },
  {
    name: '/v1/chat/completions',
    path: () => '/v1/chat/completions',
    body: (kb: string, f: unknown) => ({ model: 'kbqa-extractive', knowledge_base_id: kb, filter: f, messages: [{ role: 'user', content: 'Where is Erebus?' }] }),
    param: 'filter',
  },
  {
    name: '/v1/responses',
    path: () => '/v1/responses',
    body: (kb: string, f: unknown) => ({ model: 'kbqa-extractive', input: 'Where is Erebus?', tools: [{ type: 'file_search', vector_store_ids: [kb], filters: f }] }),
    param: 'tools.0.filters',
  },
  { name: '/v1/vector_stores/{id}/search', path: (kb: string) => `/v1/vector_stores/${kb}/search`, body: (_kb: string, f: unknown) => ({ query: 'volcano', filters: f }), param: 'filters' },
];

for (const r of filterRoutes) {
  test.serial(`${r.name}: a filter nested 1,000 deep is 400 naming the depth limit, and the server answers on`, async (t) => {
    const { call, head } = t.context.server;
    const before = await head();
    const res = await call('POST', r.path(t.context.kbId), { json: r.body(t.context.kbId, nested(1000)) });
    t.is(res.status, 400);
    t.is(res.body.error.type, 'invalid_request_error');
    t.is(res.body.error.code, 'nesting_too_deep');
    // The top-level field that holds it.
    t.is(res.body.error.param, r.param.split('.')[0]);
    t.true(res.body.error.message.includes(String(MAX_JSON_DEPTH)), res.body.error.message);
    t.is(await head(), before);
    t.is((await call('GET', '/healthz', { key: null })).status, 200);
  });

  test.serial(`${r.name}: a filter one level past ${MAX_FILTER_DEPTH}, or with more than ${MAX_FILTER_NODES} nodes, is 400 naming that limit; one at the limit is taken`, async (t) => {
    const { call } = t.context.server;
    const deep = await call('POST', r.path(t.context.kbId), { json: r.body(t.context.kbId, nested(MAX_FILTER_DEPTH + 1)) });
    t.is(deep.status, 400);
    t.like(deep.body.error, { type: 'invalid_request_error', code: 'filter_too_deep', param: r.param });
    t.true(deep.body.error.message.includes(`${MAX_FILTER_DEPTH} levels`), deep.body.error.message);
    const large = await call('POST', r.path(t.context.kbId), { json: r.body(t.context.kbId, wide()) });
    t.is(large.status, 400);
    t.like(large.body.error, { code: 'filter_too_large', param: r.param });
    t.true(large.body.error.message.includes(String(MAX_FILTER_NODES)), large.body.error.message);
    const ok = await call('POST', r.path(t.context.kbId), { json: r.body(t.context.kbId, nested(MAX_FILTER_DEPTH)) });
    t.is(ok.status, 200, JSON.stringify(ok.body));
  });
}

test.serial('MCP search: a filter nested 1,000 deep is refused naming the limit (no stack overflow); one past the filter depth is a tool error naming it', async (t) => {
  const { server, kbId } = t.context;
  const client = new Client({ name: 'kbqa-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${ADMIN_KEY}` } } }));
  try {
    const search = (filter: unknown) => client.callTool({ name: 'search', arguments: { knowledge_base_id: kbId, query: 'volcano', filter } }) as Promise<CallToolResult>;
    const tooDeep = await t.throwsAsync(search(nested(1000)));
    t.regex(tooDeep!.message, /nesting_too_deep/);
    t.true(tooDeep!.message.includes(`${MAX_JSON_DEPTH} levels`), tooDeep!.message);
    t.notRegex(tooDeep!.message, /Maximum call stack/);
    const deep = await search(nested(MAX_FILTER_DEPTH + 1));
    t.true(deep.isError);
    const text = deep.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    t.true(text.includes(`${MAX_FILTER_DEPTH} levels`), text);
    // The server is still there, and so is the tool.
    const fine = await search(nested(MAX_FILTER_DEPTH));
    t.falsy(fine.isError, JSON.stringify(fine.content));
  } finally {
    await client.close();
  }
});

test.serial('any JSON body nested deeper than the limit is 400 nesting_too_deep, before its schema sees it', async (t) => {
  // Written out: JSON.stringify would itself overflow on it.
  const deep = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
  const res = await t.context.server.call('POST', '/v1/knowledge-bases', { raw: `{"name":"deep","description":${deep}}` });
  t.is(res.status, 400);
  t.like(res.body.error, { code: 'nesting_too_deep', param: 'description' });
  const proto = await t.context.server.call('POST', '/v1/knowledge-bases', { raw: '{"name":"p","__proto__":{"admin":true}}' });
  t.like(proto, { status: 400, body: { error: { code: 'invalid_json' } } });
});

test.serial('GET /v1/files takes limit 1–100, as documented: 10,000 is 400 naming limit', async (t) => {
  const res = await t.context.server.call('GET', '/v1/files?limit=10000');
  t.is(res.status, 400);
  t.like(res.body.error, { code: 'invalid_value', param: 'limit' });
  t.is((await t.context.server.call('GET', '/v1/files?limit=100')).status, 200);
});

test.serial('score_threshold is 0–1 wherever it is taken: 5 is 400 naming the field', async (t) => {
  const { call } = t.context.server;
  const kb = t.context.kbId;
  const cases = [
    { path: `/v1/vector_stores/${kb}/search`, json: { query: 'volcano', ranking_options: { score_threshold: 5 } }, param: 'ranking_options.score_threshold' },
    { path: '/v1/search', json: { knowledge_base_id: kb, query: 'volcano', score_threshold: 5 }, param: 'score_threshold' },
    {
      path: '/v1/responses',
      json: { model: 'kbqa-extractive', input: 'q', tools: [{ type: 'file_search', vector_store_ids: [kb], ranking_options: { score_threshold: 5 } }] },
      param: 'tools.0.ranking_options.score_threshold',
    },
    { path: '/v1/knowledge-bases', json: { name: 'x', settings: { score_threshold: 5 } }, param: 'settings.score_threshold' },
  ];
  for (const c of cases) {
    const res = await call('POST', c.path, { json: c.json });
    t.is(res.status, 400, c.path);
    t.like(res.body.error, { code: 'invalid_value', param: c.param }, c.path);
  }
  t.is((await call('POST', `/v1/vector_stores/${kb}/search`, { json: { query: 'volcano', ranking_options: { score_threshold: 0.5 } } })).status, 200);
});

async function uploadFile(server: TestServer, purpose: string, name: string, bytes: string) {
  const res = await postFile(server.url, ADMIN_KEY, { name, bytes, purpose, type: 'text/plain' });
  return { status: res.status, body: (await res.json()) as any };
}

test.serial('POST /v1/files: a purpose OpenAI does not define is 400 naming the accepted ones; an empty file is 400 naming it', async (t) => {
  const { server } = t.context;
  const before = await server.head();
  const purpose = await uploadFile(server, 'nonsense', 'a.txt', 'some text');
  t.is(purpose.status, 400);
  t.like(purpose.body.error, { code: 'invalid_value', param: 'purpose' });
  for (const accepted of ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals']) t.true(purpose.body.error.message.includes(accepted), purpose.body.error.message);
  const empty = await uploadFile(server, 'assistants', 'empty.txt', '');
  t.is(empty.status, 400);
  t.like(empty.body.error, { code: 'empty_file', param: 'file' });
  t.true(empty.body.error.message.includes('empty.txt'), empty.body.error.message);
  t.is(await server.head(), before, 'nothing recorded');
  t.is((await uploadFile(server, 'user_data', 'b.txt', 'some text')).status, 200);
});

/** POSTs raw bytes as JSON with the given Content-Type. */
async function postBytes(server: TestServer, bytes: Buffer, contentType: string) {
  const res = await fetch(`${server.url}/v1/knowledge-bases`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': contentType }, body: new Uint8Array(bytes) });
  return { status: res.status, body: (await res.json()) as any };
}

test.serial('a body declared in a charset other than UTF-8 is 415 naming UTF-8; invalid UTF-8 bytes are 400, never read as U+FFFD', async (t) => {
  const { server } = t.context;
  const before = await server.head();
  const utf16 = await postBytes(server, Buffer.from('{"name":"wide"}', 'utf16le'), 'application/json; charset=utf-16');
  t.is(utf16.status, 415);
  t.like(utf16.body.error, { type: 'invalid_request_error', code: 'unsupported_charset' });
  t.regex(utf16.body.error.message, /utf-8/i);
  // 'café' in Latin-1: the é is a lone 0xE9, not UTF-8.
  const latin1 = await postBytes(server, Buffer.from('{"name":"café"}', 'latin1'), 'application/json');
  t.is(latin1.status, 400);
  t.like(latin1.body.error, { code: 'invalid_encoding' });
  t.is(await server.head(), before, 'nothing recorded');
  for (const declared of ['application/json; charset=UTF-8', 'application/json; charset=utf8', 'application/json']) {
    const ok = await postBytes(server, Buffer.from('{"name":"café"}', 'utf8'), declared);
    t.is(ok.status, 201, declared);
    t.is(ok.body.name, 'café');
  }
});

test.serial('POST …/documents: an empty file refuses the upload at once, 400 naming it; so does empty JSON text', async (t) => {
  const { server, kbId } = t.context;
  const before = await server.head();
  const res = await uploadFiles(server, kbId, [
    { name: 'empty.txt', bytes: '' },
    { name: 'fine.txt', bytes: 'A perfectly fine document about otters.' },
  ]);
  t.is(res.status, 400);
  t.like(res.body.error, { code: 'empty_file', param: 'file' });
  t.true(res.body.error.message.includes('empty.txt'), res.body.error.message);
  const text = await server.call('POST', `/v1/knowledge-bases/${kbId}/documents`, { json: { name: 'empty.txt', text: '' } });
  t.is(text.status, 400);
  t.is(text.body.error.param, 'text');
  t.is(await server.head(), before, 'nothing queued');
});
