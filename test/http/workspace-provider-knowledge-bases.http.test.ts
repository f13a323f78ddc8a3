import { createServer } from 'node:net';
import test from 'ava';
import { reindexKnowledgeBase } from '../../src/app/reindex.ts';
import { createWorkspaceWithAdminKey } from '../../src/app/services/workspaces.ts';
import { settledDocument } from '../helpers/documents.ts';
import { startProviderServer, LOOPBACK_PROVIDERS } from '../helpers/provider-servers.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

type Provider = Awaited<ReturnType<typeof startProviderServer>>;

const PROVIDER_KEY = 'sk-kb-provider-5d6c';
const MODELS = [
  { id: 'loop-embed', type: 'embedding', dimensions: 6 },
  { id: 'loop-embed-unsized', type: 'embedding' },
  { id: 'loop-rerank', type: 'rerank' },
  { id: 'loop-chat', type: 'chat' },
];
let server: TestServer;
let provider: Provider;
let other: string;

test.before(async () => {
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_OPENAI_MAX_RETRIES: '0', KBQA_QUERY_PROCESSES: '0', ...LOOPBACK_PROVIDERS });
  provider = await startProviderServer({ dimensions: 6 });
  other = (await createWorkspaceWithAdminKey(server.runtime.ctx, 'kb-other'))!;
  await addProvider('loop', provider.baseUrl);
});

test.after.always(async () => {
  await server.close();
  await provider.close();
});

async function addProvider(name: string, baseUrl: string, models: unknown[] = MODELS) {
  const created = await server.call('POST', '/v1/model-providers', { json: { name, base_url: baseUrl, api_key: PROVIDER_KEY, models } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body.id as string;
}

const createKb = (settings: Record<string, unknown>, key?: string) => server.call('POST', '/v1/knowledge-bases', { key, json: { name: 'kb', settings } });

/** A port nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const socket = createServer();
  await new Promise<void>((resolve) => socket.listen(0, '127.0.0.1', resolve));
  const { port } = socket.address() as { port: number };
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

test.serial('a knowledge base embeds with its workspace provider’s model, and searches and reranks with its models', async (t) => {
  const kb = await createKb({ embedding_model: 'loop/loop-embed', rerank: { enabled: true, model: 'loop/loop-rerank' } });
  t.is(kb.status, 201, JSON.stringify(kb.body));
  t.is(kb.body.settings.embedding_model, 'loop/loop-embed');
  const upload = await server.call('POST', `/v1/knowledge-bases/${kb.body.id}/documents`, { json: { name: 'orchard.md', text: 'The orchard keeper plants pear trees every spring.' } });
  const doc = await settledDocument(server, kb.body.id, upload.body.data[0].id);
  t.is(doc.status, 'ready', JSON.stringify(doc.error));
  const embedded = provider.requests.filter((r) => r.url === '/v1/embeddings');
  t.true(embedded.length >= 1);
  t.is(embedded.at(-1)!.authorization, `Bearer ${PROVIDER_KEY}`);
  t.is(embedded.at(-1)!.body.model, 'loop-embed');
  t.true(JSON.stringify(embedded.at(-1)!.body.input).includes('pear trees'));

  const before = provider.requests.length;
  const found = await server.call('POST', `/v1/knowledge-bases/${kb.body.id}/search`, { json: { query: 'Who plants pear trees?', mode: 'vector' } });
  t.is(found.status, 200, JSON.stringify(found.body));
  t.true(JSON.stringify(found.body.data).includes('pear trees'));
  const asked = provider.requests.slice(before);
  t.deepEqual(asked.map((r) => r.url).sort(), ['/v1/embeddings', '/v1/rerank']);
  const reranked = asked.find((r) => r.url === '/v1/rerank')!;
  t.is(reranked.body.model, 'loop-rerank');
  t.is(reranked.body.query, 'Who plants pear trees?');
  t.is(reranked.authorization, `Bearer ${PROVIDER_KEY}`);
  await server.call('DELETE', `/v1/knowledge-bases/${kb.body.id}`);
});

test.serial('create and patch refuse a model the workspace has not, of the wrong type, or an embedding model without dimensions', async (t) => {
  const refusals: [Record<string, unknown>, string, string][] = [
    [{ embedding_model: 'loop/unlisted' }, 'model_not_found', 'settings.embedding_model'],
    [{ embedding_model: 'loop/loop-chat' }, 'model_not_found', 'settings.embedding_model'],
    [{ embedding_model: 'loop/loop-rerank' }, 'model_not_found', 'settings.embedding_model'],
    [{ embedding_model: 'loop/loop-embed-unsized' }, 'model_dimensions_unknown', 'settings.embedding_model'],
    [{ rerank: { enabled: true, model: 'loop/loop-embed' } }, 'model_not_found', 'settings.rerank.model'],
    [{ rerank: { enabled: true, model: 'nobody/loop-rerank' } }, 'model_not_found', 'settings.rerank.model'],
  ];
  for (const [settings, code, param] of refusals) {
    const refused = await createKb(settings);
    t.is(refused.status, 400, JSON.stringify(settings));
    t.like(refused.body.error, { code, param });
    t.true(refused.body.error.message.includes(JSON.stringify(settings).match(/"(\w+\/[\w-]+)"/)![1]!), refused.body.error.message);
  }
  const kb = await createKb({});
  const patched = await server.call('PATCH', `/v1/knowledge-bases/${kb.body.id}`, { json: { settings: { rerank: { enabled: true, model: 'loop/loop-rerank' } } } });
  t.is(patched.status, 200, JSON.stringify(patched.body));
  const wrong = await server.call('PATCH', `/v1/knowledge-bases/${kb.body.id}`, { json: { settings: { rerank: { enabled: true, model: 'loop/loop-chat' } } } });
  t.is(wrong.status, 400);
  t.is(wrong.body.error.code, 'model_not_found');
  await server.call('DELETE', `/v1/knowledge-bases/${kb.body.id}`);
});

test.serial('another workspace cannot name the provider’s models in its knowledge bases', async (t) => {
  for (const settings of [{ embedding_model: 'loop/loop-embed' }, { rerank: { enabled: true, model: 'loop/loop-rerank' } }]) {
    const refused = await createKb(settings, other);
    t.is(refused.status, 400, JSON.stringify(settings));
    t.is(refused.body.error.code, 'model_not_found');
  }
});

test.serial('a provider that refuses connections: the document fails with the cause, search answers 502 naming it', async (t) => {
  const id = await addProvider('gone', `http://127.0.0.1:${await closedPort()}/v1`);
  const kb = await createKb({ embedding_model: 'gone/loop-embed' });
  t.is(kb.status, 201, JSON.stringify(kb.body));
  const upload = await server.call('POST', `/v1/knowledge-bases/${kb.body.id}/documents`, { json: { name: 'lost.md', text: 'Nothing will embed this.' } });
  const doc = await settledDocument(server, kb.body.id, upload.body.data[0].id);
  t.is(doc.status, 'failed');
  t.like(doc.error, { stage: 'indexing', code: 'provider_unavailable' });
  t.regex(doc.error.detail, /refused the connection \(ECONNREFUSED\)/);

  const search = await server.call('POST', `/v1/knowledge-bases/${kb.body.id}/search`, { json: { query: 'anything', mode: 'vector' } });
  t.is(search.status, 502);
  t.is(search.body.error.code, 'provider_unavailable');
  t.regex(search.body.error.message, /ECONNREFUSED/);
  const embedded = await server.call('POST', '/v1/embeddings', { json: { model: 'gone/loop-embed', input: 'x' } });
  t.is(embedded.status, 502);
  t.regex(embedded.body.error.message, /ECONNREFUSED/);
  await server.call('DELETE', `/v1/knowledge-bases/${kb.body.id}`);
  await server.call('DELETE', `/v1/model-providers/${id}`);
});

test.serial('a provider that refuses the key (401): embeddings and rerank answer 502 provider_auth_failed, never echoing the key', async (t) => {
  const refusing = await startProviderServer({ failFirst: 1000, failure: { status: 401, body: { error: { message: `Incorrect API key provided: ${PROVIDER_KEY}` } } } });
  const id = await addProvider('locked', refusing.baseUrl);
  try {
    const embedded = await server.call('POST', '/v1/embeddings', { json: { model: 'locked/loop-embed', input: 'x' } });
    t.is(embedded.status, 502);
    t.is(embedded.body.error.code, 'provider_auth_failed');
    t.regex(embedded.body.error.message, /HTTP 401/);
    t.false(JSON.stringify(embedded.body).includes(PROVIDER_KEY));

    const kb = await createKb({ rerank: { enabled: true, model: 'locked/loop-rerank' } });
    const upload = await server.call('POST', `/v1/knowledge-bases/${kb.body.id}/documents`, { json: { name: 'a.md', text: 'Lanterns light the harbour.' } });
    t.is((await settledDocument(server, kb.body.id, upload.body.data[0].id)).status, 'ready');
    const search = await server.call('POST', `/v1/knowledge-bases/${kb.body.id}/search`, { json: { query: 'lanterns' } });
    t.is(search.status, 502);
    t.is(search.body.error.code, 'provider_auth_failed');
    await server.call('DELETE', `/v1/knowledge-bases/${kb.body.id}`);
  } finally {
    await server.call('DELETE', `/v1/model-providers/${id}`);
    await refusing.close();
  }
});

test.serial('reindex re-embeds a knowledge base moved to a workspace provider’s embedding model with it', async (t) => {
  const kb = (await createKb({ recall: { vector: true, keyword: false, graph: false }, rerank: { enabled: false } })).body;
  const upload = await server.call('POST', `/v1/knowledge-bases/${kb.id}/documents`, { json: { name: 'basalt.md', text: 'Basalt is a volcanic rock.' } });
  const doc = await settledDocument(server, kb.id, upload.body.data[0].id);
  t.is((await server.call('PATCH', `/v1/knowledge-bases/${kb.id}`, { json: { settings: { embedding_model: 'loop/loop-embed' } } })).status, 200);
  const { runtime } = server;
  const before = provider.requests.length;
  const done = await reindexKnowledgeBase({
    store: runtime.store,
    readModels: runtime.readModels,
    vectors: runtime.indexes.vectors,
    passages: runtime.indexes.passages,
    embedders: runtime.embedders,
    workspaceModels: runtime.services.workspaceModels,
    knowledgeBaseId: kb.id,
  });
  t.is(done.chunks, doc.chunk_count);
  t.true(provider.requests.slice(before).some((r) => r.url === '/v1/embeddings' && r.body.model === 'loop-embed'));
  const hits = await server.call('POST', `/v1/knowledge-bases/${kb.id}/search`, { json: { query: 'volcanic rock' } });
  t.is(hits.body.data.length, 1);
  await server.call('DELETE', `/v1/knowledge-bases/${kb.id}`);
});
