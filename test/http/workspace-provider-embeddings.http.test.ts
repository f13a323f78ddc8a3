import test from 'ava';
import { createWorkspaceWithAdminKey } from '../../src/app/services/workspaces.ts';
import { loopVector, startProviderServer, LOOPBACK_PROVIDERS } from '../helpers/provider-servers.ts';
import { captureLogs } from '../helpers/logs.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

type Provider = Awaited<ReturnType<typeof startProviderServer>>;

const PROVIDER_KEY = 'sk-embeddings-provider-9f8e';
let server: TestServer;
let provider: Provider;
let other: string;

test.before(async () => {
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_OPENAI_MAX_RETRIES: '0', ...LOOPBACK_PROVIDERS });
  provider = await startProviderServer({ dimensions: 6 });
  other = (await createWorkspaceWithAdminKey(server.runtime.ctx, 'embeddings-other'))!;
  const created = await server.call('POST', '/v1/model-providers', {
    json: {
      name: 'loop',
      base_url: provider.baseUrl,
      api_key: PROVIDER_KEY,
      models: [
        { id: 'loop-embed', type: 'embedding', dimensions: 6 },
        { id: 'loop-embed-unsized', type: 'embedding' },
        { id: 'loop-chat', type: 'chat' },
      ],
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
});

test.after.always(async () => {
  await server.close();
  await provider.close();
});

const embed = (model: string, input: string | string[], key?: string, extra: Record<string, unknown> = {}) =>
  server.call('POST', '/v1/embeddings', { key, json: { model, input, ...extra } });

test('a workspace provider’s embedding model answers /v1/embeddings as {provider}/{model}, with the provider’s key', async (t) => {
  const answer = await embed('loop/loop-embed', ['first text', 'second text']);
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.is(answer.body.model, 'loop/loop-embed');
  t.is(answer.body.data.length, 2);
  t.deepEqual(
    answer.body.data.map((d: { embedding: number[] }) => d.embedding.map((v) => Math.round(v * 1000))),
    ['first text', 'second text'].map((text) => loopVector(text, 6).map((v) => Math.round(v * 1000))),
  );
  const sent = provider.requests.filter((r) => r.url === '/v1/embeddings').at(-1)!;
  t.is(sent.authorization, `Bearer ${PROVIDER_KEY}`);
  t.is(sent.body.model, 'loop-embed');
});

test('dimensions shorter than the entry’s are passed on to the provider', async (t) => {
  const answer = await embed('loop/loop-embed', 'short', undefined, { dimensions: 3 });
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.is(answer.body.data[0].embedding.length, 3);
});

test('another workspace naming the provider’s model gets model_not_found, and the provider is not called', async (t) => {
  const before = provider.requests.length;
  const foreign = await embed('loop/loop-embed', 'hello', other);
  t.is(foreign.status, 404);
  t.is(foreign.body.error.code, 'model_not_found');
  t.is(provider.requests.length, before);
});

test('a chat model, an unlisted model, and an embedding model without dimensions are not embedding models here', async (t) => {
  for (const model of ['loop/loop-chat', 'loop/unlisted', 'loop/loop-embed-unsized', 'nobody/loop-embed']) {
    const answer = await embed(model, 'hello');
    t.is(answer.status, 404, model);
    t.is(answer.body.error.code, 'model_not_found', model);
  }
});

test('the runtime logs each environment provider at start-up with its host and models, never its key', async (t) => {
  const { logger, lines, text } = captureLogs();
  const env = { OPENAI_API_KEY: 'sk-env-never-logged', OPENAI_BASE_URL: provider.baseUrl, KBQA_OPENAI_EMBEDDING_MODELS: 'loop-embed:6', ...LOOPBACK_PROVIDERS };
  const started = await startServer(env, { logger });
  try {
    const line = lines.find((l) => l.provider === 'openai');
    t.like(line, { msg: 'deployment model provider', host: new URL(provider.baseUrl).host, embedding_models: ['loop-embed:6'], chat_models: [] });
    t.false(text().includes('sk-env-never-logged'));
  } finally {
    await started.close();
  }
});
