import test, { type ExecutionContext } from 'ava';
import { ADMIN_KEY } from '../helpers/admin-key.ts';
import { knowledgeBaseCreated } from '../helpers/given-events.ts';
import { httpSpec } from '../helpers/http-spec.ts';

// Refusals need no worker: each case runs on an app of its own over in-memory ports, given the
// knowledge base the PATCH cases aim at, with JSON bodies limited to 4 KB.
const kbId = 'kb_target';
const spec = (t: ExecutionContext) => httpSpec(t, { env: { KBQA_MAX_JSON_KB: '4' } });

/** A capital or a field's name first, a full stop (or its like) last. */
const SENTENCE = /^[A-Z`'"a-z_\[].*[.!?]['"’)\]]*$/s;

/** Each bad request: the status, the error's code and param, and not a single event appended. */
const cases: { title: string; method: string; path: (kb: string) => string; json?: unknown; raw?: string; headers?: Record<string, string>; status: number; code: string; param: string | null; says?: string }[] = [
  { title: 'malformed JSON', method: 'POST', path: () => '/v1/knowledge-bases', raw: '{"name": "x",', status: 400, code: 'invalid_json', param: null },
  { title: 'a body that is not the gzip it claims', method: 'POST', path: () => '/v1/knowledge-bases', raw: '{"name": "x"}', headers: { 'content-encoding': 'gzip' }, status: 400, code: 'invalid_json', param: null },
  { title: 'missing required field', method: 'POST', path: () => '/v1/knowledge-bases', json: {}, status: 400, code: 'missing_field', param: 'name' },
  { title: 'wrong type', method: 'POST', path: () => '/v1/knowledge-bases', json: { name: 42 }, status: 400, code: 'invalid_value', param: 'name' },
  { title: 'empty name', method: 'POST', path: () => '/v1/knowledge-bases', json: { name: '   ' }, status: 400, code: 'invalid_value', param: 'name' },
  { title: 'top_k out of range', method: 'POST', path: () => '/v1/knowledge-bases', json: { name: 'x', settings: { top_k: 101 } }, status: 400, code: 'invalid_value', param: 'settings.top_k' },
  { title: 'top_k not an integer', method: 'POST', path: () => '/v1/knowledge-bases', json: { name: 'x', settings: { top_k: 2.5 } }, status: 400, code: 'invalid_value', param: 'settings.top_k' },
  { title: 'score_threshold above 1', method: 'POST', path: () => '/v1/knowledge-bases', json: { name: 'x', settings: { score_threshold: 1.5 } }, status: 400, code: 'invalid_value', param: 'settings.score_threshold' },
  { title: 'unknown top-level field', method: 'POST', path: () => '/v1/knowledge-bases', json: { name: 'x', colour: 'red' }, status: 400, code: 'unknown_field', param: 'colour' },
  { title: 'a misspelt field (its right name then missing)', method: 'POST', path: (kb) => `/v1/knowledge-bases/${kb}/search`, json: { querry: 'blade length' }, status: 400, code: 'unknown_field', param: 'querry', says: "did you mean 'query'?" },
  { title: 'unknown nested field', method: 'POST', path: () => '/v1/knowledge-bases', json: { name: 'x', settings: { recall: { fuzzy: true } } }, status: 400, code: 'unknown_field', param: 'settings.recall.fuzzy' },
  { title: 'unknown embedding model', method: 'POST', path: () => '/v1/knowledge-bases', json: { name: 'x', settings: { embedding_model: 'nope' } }, status: 400, code: 'model_not_found', param: 'settings.embedding_model' },
  { title: 'no recall left after a patch', method: 'PATCH', path: (kb) => `/v1/knowledge-bases/${kb}`, json: { settings: { recall: { vector: false, keyword: false } } }, status: 400, code: 'invalid_settings', param: 'settings.recall' },
  { title: 'a language the analyzer does not know', method: 'PATCH', path: (kb) => `/v1/knowledge-bases/${kb}`, json: { settings: { language: 'xx' } }, status: 400, code: 'invalid_settings', param: 'settings.language' },
  { title: 'overlap not below chunk size', method: 'PATCH', path: (kb) => `/v1/knowledge-bases/${kb}`, json: { settings: { chunking: { max_tokens: 64, overlap_tokens: 64 } } }, status: 400, code: 'invalid_settings', param: 'settings.chunking.overlap_tokens' },
  { title: 'empty patch', method: 'PATCH', path: (kb) => `/v1/knowledge-bases/${kb}`, json: {}, status: 400, code: 'invalid_value', param: null },
  { title: 'malformed If-Match', method: 'PATCH', path: (kb) => `/v1/knowledge-bases/${kb}`, json: { name: 'n' }, headers: { 'if-match': 'yesterday' }, status: 400, code: 'invalid_if_match', param: 'If-Match' },
  { title: 'unknown query parameter', method: 'GET', path: () => '/v1/knowledge-bases?colour=red', status: 400, code: 'unknown_field', param: 'colour' },
  { title: 'limit out of range', method: 'GET', path: () => '/v1/knowledge-bases?limit=0', status: 400, code: 'invalid_value', param: 'limit' },
  { title: 'unknown scope', method: 'POST', path: () => '/v1/api-keys', json: { name: 'k', scopes: ['root'] }, status: 400, code: 'invalid_value', param: 'scopes.0' },
  { title: 'expiry in the past', method: 'POST', path: () => '/v1/api-keys', json: { name: 'k', expires_at: '2001-01-01T00:00:00Z' }, status: 400, code: 'invalid_expiry', param: 'expires_at' },
  { title: 'expiry not a date', method: 'POST', path: () => '/v1/api-keys', json: { name: 'k', expires_at: 'tomorrow' }, status: 400, code: 'invalid_value', param: 'expires_at' },
  { title: 'body over the limit', method: 'POST', path: () => '/v1/knowledge-bases', json: { name: 'x', description: 'y'.repeat(5000) }, status: 413, code: 'request_too_large', param: null },
  { title: 'not JSON', method: 'POST', path: () => '/v1/knowledge-bases', raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, code: 'unsupported_media_type', param: null },
];

for (const c of cases) {
  test(`${c.title}: ${c.status} ${c.code}, nothing written`, async (t) => {
    const res = await spec(t)
      .given(knowledgeBaseCreated({ id: kbId, name: 'Target' }))
      .when({ method: c.method, path: c.path(kbId), json: c.json, raw: c.raw, headers: c.headers })
      .then({ status: c.status, events: [] });
    t.is(res.body.error.code, c.code);
    t.is(res.body.error.param, c.param);
    t.regex(res.body.error.message, SENTENCE, 'one voice: the message ends as a sentence');
    if (c.param) t.true(res.body.error.message.includes(c.param), res.body.error.message);
    if (c.says) t.true(res.body.error.message.includes(c.says), res.body.error.message);
  });
}

test('a body that lies about its length is cut off at the limit', async (t) => {
  const server = await spec(t).app();
  const before = await server.head();
  // Chunked encoding has no Content-Length, so the limit must hold while reading.
  const big = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(`{"name":"x","description":"${'z'.repeat(8000)}"}`));
      controller.close();
    },
  });
  const res = await fetch(`${server.url}/v1/knowledge-bases`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: big,
    duplex: 'half',
  } as RequestInit);
  t.is(res.status, 413);
  t.is(await server.head(), before);
});

test('the errors a console shows most end as sentences too: no key, a wrong key, a knowledge base not there', async (t) => {
  const app = await spec(t).app();
  const answers = [
    await app.call('GET', '/v1/knowledge-bases', { key: null }),
    await app.call('GET', '/v1/knowledge-bases', { key: 'sk-wrong-0123456789abcdef' }),
    await app.call('GET', '/v1/knowledge-bases/kb_nowhere'),
  ];
  t.deepEqual(answers.map((a) => [a.status, a.body.error.code]), [[401, 'missing_api_key'], [401, 'invalid_api_key'], [404, 'knowledge_base_not_found']]);
  for (const a of answers) t.regex(a.body.error.message, /^[A-Z].*\.$/, a.body.error.message);
});
