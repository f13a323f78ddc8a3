import test from 'ava';
import { settledDocument } from '../helpers/documents.ts';
import { captureLogs, LEVEL } from '../helpers/logs.ts';
import { startProviderServer } from '../helpers/provider-servers.ts';
import { ADMIN_KEY as ADMIN, startServer, type TestServer } from '../helpers/server.ts';

/**
 * A workspace provider that goes away, its port refusing connections, with the default retries
 * (KBQA_OPENAI_MAX_RETRIES 5): chat and its stream answer at once naming the provider and host,
 * search falls back to keyword recall and says so, ingestion shows the failure, and each failed
 * call is one log line without a stack. bench/provider-down.bench.ts measures the same.
 */
const MODELS = [
  { id: 'm-chat', type: 'chat' },
  { id: 'm-embed', type: 'embedding', dimensions: 6 },
];
const FAST_MS = 2000;
let server: TestServer;
let kbId: string;
let host: string;
const logs = captureLogs();

test.before(async () => {
  // Loopback providers need the address policy's allowance.
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_QUERY_PROCESSES: '0', KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1' }, { logger: logs.logger });
  const provider = await startProviderServer({ dimensions: 6 });
  host = new URL(provider.baseUrl).host;
  const added = await server.call('POST', '/v1/model-providers', { json: { name: 'gone', base_url: provider.baseUrl, api_key: 'sk-gone-0001', models: MODELS } });
  if (added.status !== 201) throw new Error(JSON.stringify(added.body));
  const kb = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'down', settings: { embedding_model: 'gone/m-embed' } } });
  kbId = kb.body.id;
  const upload = await server.call('POST', `/v1/knowledge-bases/${kbId}/documents`, { json: { name: 'tide.md', text: 'The tide tables of the harbour are posted at the pier every morning.' } });
  const doc = await settledDocument(server, kbId, upload.body.data[0].id);
  if (doc.status !== 'ready') throw new Error(JSON.stringify(doc.error));
  await provider.close(); // from here its port refuses connections
});

test.after.always(() => server?.close());

const messages = [{ role: 'user', content: 'When are the tide tables posted?' }];
const names = (message: string) => message.includes(`chat provider at ${host}`) && message.includes('ECONNREFUSED');

async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await call();
  return { result, ms: performance.now() - started };
}

test.serial('chat answers 502 at once, naming the provider and its host, and logs one line without a stack', async (t) => {
  const before = logs.lines.length;
  const { result, ms } = await timed(() => server.call('POST', '/v1/chat/completions', { json: { model: 'gone/m-chat', messages } }));
  t.is(result.status, 502);
  t.is(result.body.error.code, 'provider_unavailable');
  t.true(names(result.body.error.message), result.body.error.message);
  t.true(ms <= FAST_MS, `${Math.round(ms)} ms`);
  const failures = logs.lines.slice(before).filter((l) => l.level >= LEVEL.warn);
  t.is(failures.length, 1, JSON.stringify(failures));
  t.is(failures[0]!.err?.stack, undefined, 'a provider failure is no stack trace');
  t.regex(JSON.stringify(failures[0]), /ECONNREFUSED/);
});

test.serial('a chat stream sends its error at once', async (t) => {
  const { result, ms } = await timed(async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gone/m-chat', messages, stream: true }),
    });
    return response.text();
  });
  t.true(names(result), result);
  t.true(ms <= FAST_MS, `${Math.round(ms)} ms`);
});

test.serial('search falls back to keyword recall with a warning; vector recall alone still fails, at once', async (t) => {
  const { result, ms } = await timed(() => server.call('POST', `/v1/knowledge-bases/${kbId}/search`, { json: { query: 'tide tables at the pier' } }));
  t.is(result.status, 200, JSON.stringify(result.body));
  t.true(ms <= FAST_MS, `${Math.round(ms)} ms`);
  t.true(result.body.data.length >= 1, 'keyword recall found the passage');
  t.is(result.body.warnings.length, 1);
  t.is(result.body.warnings[0].code, 'vector_recall_unavailable');
  t.regex(result.body.warnings[0].message, new RegExp(`embedding provider at ${host}.*ECONNREFUSED`));
  const across = await server.call('POST', '/v1/search', { json: { query: 'tide tables', knowledge_base_ids: [kbId] } });
  t.is(across.status, 200);
  t.is(across.body.warnings?.[0]?.code, 'vector_recall_unavailable');

  const alone = await timed(() => server.call('POST', `/v1/knowledge-bases/${kbId}/search`, { json: { query: 'tide tables', mode: 'vector' } }));
  t.is(alone.result.status, 502);
  t.true(alone.ms <= FAST_MS, `${Math.round(alone.ms)} ms`);
});

test.serial('an upload shows the provider failure within seconds, not after a minute of silent retries', async (t) => {
  const before = logs.lines.length;
  const upload = await server.call('POST', `/v1/knowledge-bases/${kbId}/documents`, { json: { name: 'pier.md', text: 'The pier lights turn on at dusk.' } });
  const { result: doc, ms } = await timed(() => settledDocument(server, kbId, upload.body.data[0].id, 30_000));
  await logs.waitFor((l) => l.msg === 'document failed' && l.documentId === doc.id);
  const failures = logs.lines.slice(before).filter((l) => l.level >= LEVEL.warn);
  t.deepEqual(failures.map((l) => [l.msg, l.code, l.err?.stack]), [['document failed', 'provider_unavailable', undefined]], 'one line, no stack');
  t.is(doc.status, 'failed');
  t.like(doc.error, { stage: 'indexing', code: 'provider_unavailable' });
  t.regex(doc.error.detail, new RegExp(`embedding provider at ${host}.*ECONNREFUSED`));
  t.true(ms <= 10_000, `${Math.round(ms)} ms`);
});

test.serial('while the indexer retries, the document\'s progress carries the provider\'s error', async (t) => {
  // The knowledge base's stream, opened before the upload: progress is live only, never replayed.
  const events = await fetch(`${server.url}/v1/knowledge-bases/${kbId}/documents/events`, { headers: { authorization: `Bearer ${ADMIN}` } });
  const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const upload = await server.call('POST', `/v1/knowledge-bases/${kbId}/documents`, { json: { name: 'buoy.md', text: 'The buoy bell rings at high tide.' } });
  const id = upload.body.data[0].id as string;
  const deadline = Date.now() + 30_000;
  while (!/event: DocumentFailed/.test(text) && Date.now() < deadline) text += (await reader.read()).value ?? '';
  await reader.cancel();
  const progress = [...text.matchAll(/event: progress\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!)).filter((p) => p.document_id === id && p.retrying);
  t.true(progress.length >= 1, text);
  t.like(progress[0], { stage: 'indexing', retrying: true, last_error: { code: 'provider_unavailable' } });
  t.regex(progress[0].last_error.message, new RegExp(`embedding provider at ${host}.*ECONNREFUSED`));
  t.true(text.indexOf('"retrying":true') < text.indexOf('event: DocumentFailed'), 'shown before the document fails');
});
