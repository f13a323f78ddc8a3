import { settledDocument } from '../test/helpers/documents.ts';
import { startProviderServer } from '../test/helpers/provider-servers.ts';
import { ADMIN_KEY as ADMIN, startServer, type TestServer } from '../test/helpers/server.ts';
import { log, round } from './util.ts';

const MODELS = [
  { id: 'm-chat', type: 'chat' },
  { id: 'm-embed', type: 'embedding', dimensions: 6 },
];
/** How long the bench waits for a document to show its provider's failure before it gives up. */
const INGEST_WAIT_MS = 150_000;

/**
 * A workspace provider that goes away (its port then refuses connections on 127.0.0.1): how long
 * chat, a chat stream and a search take to answer, and how long an ingestion takes until the
 * document shows the failure. With the default retries (KBQA_OPENAI_MAX_RETRIES 5).
 * `npm run bench -- provider_down`
 */
export async function providerDownBench() {
  // Loopback providers need the address policy's allowance (KBQA_WORKFLOW_HTTP_ALLOW_HOSTS).
  const server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_QUERY_PROCESSES: '0', KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1' });
  const provider = await startProviderServer({ dimensions: 6 });
  try {
    const added = await server.call('POST', '/v1/model-providers', { json: { name: 'gone', base_url: provider.baseUrl, api_key: 'sk-bench', models: MODELS } });
    if (added.status !== 201) throw new Error(JSON.stringify(added.body));
    const kb = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'down', settings: { embedding_model: 'gone/m-embed' } } });
    const first = await server.call('POST', `/v1/knowledge-bases/${kb.body.id}/documents`, { json: { name: 'tide.md', text: 'The tide tables of the harbour are posted at the pier every morning.' } });
    const ready = await settledDocument(server, kb.body.id, first.body.data[0].id);
    if (ready.status !== 'ready') throw new Error(`the document did not index while the provider was up: ${JSON.stringify(ready.error)}`);
    await provider.close(); // from here its port refuses connections
    const messages = [{ role: 'user', content: 'When are the tide tables posted?' }];
    const chat = await timedCall(server, '/v1/chat/completions', { model: 'gone/m-chat', messages });
    const stream = await timedCall(server, '/v1/chat/completions', { model: 'gone/m-chat', messages, stream: true });
    const search = await timedCall(server, `/v1/knowledge-bases/${kb.body.id}/search`, { query: 'tide tables at the pier' });
    const ingestion = await timeToShownFailure(server, kb.body.id);
    const figures = { chat, stream, search, ingestion };
    log(`provider_down: ${JSON.stringify(figures)}`);
    return { ...figures, pass: chat.ms <= 2000 && stream.ms <= 2000 && search.status === 200 && ingestion.ms !== null && ingestion.ms <= 10_000 };
  } finally {
    await server.close();
  }
}

async function timedCall(server: TestServer, path: string, json: Record<string, unknown>) {
  const started = performance.now();
  const answer = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(json) });
  const text = await answer.text();
  const ms = round(performance.now() - started);
  const body = parse(text);
  const error = body?.error?.message ?? /"message":"([^"]+)"/.exec(text)?.[1] ?? null;
  return { status: answer.status, ms, error, ...(body?.warnings && { warnings: body.warnings }), ...(body?.data && { hits: body.data.length }) };
}

/** From the upload until the document says why (an error while it retries, or failed). */
async function timeToShownFailure(server: TestServer, kbId: string) {
  const upload = await server.call('POST', `/v1/knowledge-bases/${kbId}/documents`, { json: { name: 'pier.md', text: 'The pier lights turn on at dusk.' } });
  const started = performance.now();
  const id = upload.body.data[0].id as string;
  while (performance.now() - started < INGEST_WAIT_MS) {
    const { body } = await server.call('GET', `/v1/knowledge-bases/${kbId}/documents/${id}`);
    const shown = body.error ?? body.progress?.last_error ?? null;
    if (shown) return { ms: round(performance.now() - started), status: body.status as string, error: (shown.message ?? String(shown)) as string };
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ms: null, status: 'indexing', error: null };
}



function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
