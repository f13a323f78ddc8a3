import test from 'ava';
import { settledDocument } from '../helpers/documents.ts';
import { startProviderServer, LOOPBACK_PROVIDERS } from '../helpers/provider-servers.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * A workspace provider that fails at use time fails every place that uses it alike: chat,
 * /v1/embeddings, a knowledge base's ingestion (the document's error) and its search (query
 * embedding, rerank), each naming the cause, never the key. The refused connection is in
 * workspace-provider-knowledge-bases; here the others the operator must tell apart.
 */

type Provider = Awaited<ReturnType<typeof startProviderServer>>;

const PROVIDER_KEY = 'sk-failing-provider-7e1f';
const MODELS = [
  { id: 'm-chat', type: 'chat' },
  { id: 'm-embed', type: 'embedding', dimensions: 6 },
  { id: 'm-rerank', type: 'rerank' },
];
let server: TestServer;
let plain: Provider;
let refusing: Provider;
let oversized: Provider;

test.before(async () => {
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_OPENAI_MAX_RETRIES: '0', KBQA_QUERY_PROCESSES: '0', ...LOOPBACK_PROVIDERS });
  plain = await startProviderServer({ dimensions: 6 });
  refusing = await startProviderServer({ failFirst: 1_000_000, failure: { status: 401, body: { error: { message: `Incorrect API key provided: ${PROVIDER_KEY}` } } } });
  // Its vectors have 8 dimensions; the workspace lists the model with 6.
  oversized = await startProviderServer({ dimensions: 8 });
});

test.after.always(async () => {
  await server.close();
  await Promise.all([plain.close(), refusing.close(), oversized.close()]);
});

async function addProvider(name: string, baseUrl: string) {
  const created = await server.call('POST', '/v1/model-providers', { json: { name, base_url: baseUrl, api_key: PROVIDER_KEY, models: MODELS } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
}

/** A knowledge base with these settings and one document, once that document has settled. */
async function kbWithDocument(settings: Record<string, unknown>) {
  const kb = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'failing', settings } });
  if (kb.status !== 201) throw new Error(JSON.stringify(kb.body));
  const upload = await server.call('POST', `/v1/knowledge-bases/${kb.body.id}/documents`, { json: { name: 'tide.md', text: 'The tide tables of the harbour are posted at the pier.' } });
  return { kbId: kb.body.id as string, doc: await settledDocument(server, kb.body.id, upload.body.data[0].id) };
}

const causes = [
  // `.invalid` never resolves (RFC 6761); a resolver that cannot be asked says EAI_AGAIN, which is a DNS failure too.
  { name: 'dns', baseUrl: () => 'http://kbqa-no-such-host.invalid/v1', code: 'provider_unavailable', says: /host name could not be resolved \((ENOTFOUND|EAI_AGAIN)\)/ },
  // https to a server that speaks plain HTTP: the handshake fails, as with a wrong scheme or port.
  { name: 'tls', baseUrl: () => plain.baseUrl.replace('http:', 'https:'), code: 'provider_unavailable', says: /TLS handshake failed \([A-Z_]+\)/ },
  { name: 'locked', baseUrl: () => refusing.baseUrl, code: 'provider_auth_failed', says: /refused the API key \(HTTP 401\)/ },
];

for (const cause of causes) {
  test(`${cause.name}: chat, embeddings, ingestion, search and rerank all answer ${cause.code} naming the cause`, async (t) => {
    await addProvider(cause.name, cause.baseUrl());
    const failed = (what: string, answer: { status: number; body: any }) => {
      t.is(answer.status, 502, what);
      t.is(answer.body.error?.code, cause.code, what);
      t.regex(answer.body.error.message, cause.says, what);
      t.false(JSON.stringify(answer.body).includes(PROVIDER_KEY), what);
    };
    const messages = [{ role: 'user', content: 'When are the tide tables posted?' }];
    failed('chat', await server.call('POST', '/v1/chat/completions', { json: { model: `${cause.name}/m-chat`, messages } }));
    failed('quick chat', await server.call('POST', '/v1/chat', { json: { model: `${cause.name}/m-chat`, messages } }));
    failed('embeddings', await server.call('POST', '/v1/embeddings', { json: { model: `${cause.name}/m-embed`, input: 'tide' } }));

    // Ingestion: retried, then the document fails with the provider error's code and cause.
    const embedded = await kbWithDocument({ embedding_model: `${cause.name}/m-embed` });
    t.is(embedded.doc.status, 'failed');
    t.like(embedded.doc.error, { stage: 'indexing', code: cause.code });
    t.regex(embedded.doc.error.detail, cause.says);
    t.false(JSON.stringify(embedded.doc).includes(PROVIDER_KEY));
    failed('search (query embedding)', await server.call('POST', `/v1/knowledge-bases/${embedded.kbId}/search`, { json: { query: 'tide tables', mode: 'vector' } }));

    // Rerank: the documents embed offline; the search's rerank asks the provider.
    const reranked = await kbWithDocument({ rerank: { enabled: true, model: `${cause.name}/m-rerank` } });
    t.is(reranked.doc.status, 'ready', JSON.stringify(reranked.doc.error));
    failed('search (rerank)', await server.call('POST', `/v1/knowledge-bases/${reranked.kbId}/search`, { json: { query: 'tide tables' } }));
  });
}

test('vectors of another size than the model entry lists: 502 provider_bad_response naming both sizes, and the document fails with it', async (t) => {
  await addProvider('oversized', oversized.baseUrl);
  const answer = await server.call('POST', '/v1/embeddings', { json: { model: 'oversized/m-embed', input: 'tide' } });
  t.is(answer.status, 502);
  t.is(answer.body.error.code, 'provider_bad_response');
  t.regex(answer.body.error.message, /'m-embed' made vectors of 8 dimensions where 6 were expected/);
  const { doc } = await kbWithDocument({ embedding_model: 'oversized/m-embed' });
  t.is(doc.status, 'failed');
  t.like(doc.error, { stage: 'indexing', code: 'provider_bad_response' });
  t.regex(doc.error.detail, /8 dimensions where 6 were expected/);
});
