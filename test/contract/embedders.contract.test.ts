import test from 'ava';
import { createHashingEmbedder } from '../../src/adapters/local/hashing-embedder.ts';
import { createOpenAiClient } from '../../src/adapters/openai/client.ts';
import { createOpenAiEmbedder } from '../../src/adapters/openai/embedder.ts';
import type { Embedder } from '../../src/ports/models.ts';
import { startEmbeddingsServer, vectorFor } from '../helpers/openai-compatible-server.ts';
import { analyzer } from '../helpers/analyzer.ts';

/** What every Embedder owes: one unit vector per text, in order, of its declared width. */
function testEmbedder(name: string, make: () => Promise<{ embedder: Embedder; cleanup(): Promise<void> }>) {
  test(`${name} › one vector per text, in order, of the declared width`, async (t) => {
    const { embedder, cleanup } = await make();
    try {
      const texts = ['alpha beta', 'gamma delta epsilon', 'alpha beta'];
      const vectors = await embedder.embed(texts);
      t.is(vectors.length, 3);
      for (const v of vectors) t.is(v.length, embedder.dimensions);
      t.deepEqual([...vectors[0]!], [...vectors[2]!], 'same text, same vector');
      t.notDeepEqual([...vectors[0]!], [...vectors[1]!]);
      t.deepEqual(await embedder.embed([]), []);
    } finally {
      await cleanup();
    }
  });
}

testEmbedder('offline hashing', async () => ({ embedder: createHashingEmbedder({ analyzer }), cleanup: async () => {} }));
testEmbedder('openai-compatible (loopback server)', async () => {
  const server = await startEmbeddingsServer({ dimensions: 8 });
  const client = createOpenAiClient({ apiKey: 'sk-test', baseURL: server.baseUrl, maxRetries: 2, timeoutMs: 5000 });
  return { embedder: createOpenAiEmbedder({ client, model: 'emb-8', dimensions: 8 }), cleanup: () => server.close() };
});

test('offline hashing › rarer shared words weigh more than common ones', async (t) => {
  const e = createHashingEmbedder({ analyzer });
  const [query, rare, common] = await e.embed(['mitochondrial apoptosis pathway', 'mitochondrial apoptosis in cells', 'the pathway of the day']);
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
  t.true(dot(query!, rare!) > dot(query!, common!));
  t.true(Math.abs(Math.hypot(...query!) - 1) < 1e-5);
});

test('openai-compatible › batches, backs off on 429, keeps order by index, sends the key', async (t) => {
  const server = await startEmbeddingsServer({ dimensions: 4, failFirst: 2 });
  try {
    const client = createOpenAiClient({ apiKey: 'sk-loopback', baseURL: server.baseUrl, maxRetries: 3, timeoutMs: 5000 });
    const embedder = createOpenAiEmbedder({ client, model: 'emb-4', dimensions: 4, batchSize: 3 });
    const texts = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const vectors = await embedder.embed(texts);
    t.deepEqual(vectors.map((v) => [...v].map((x) => Math.round(x * 1e6))), texts.map((x) => vectorFor(x, 4).map((y) => Math.round(y * 1e6))));
    const served = server.requests.slice(2);
    t.deepEqual(served.map((r) => r.inputs), [['a', 'b', 'c'], ['d', 'e', 'f'], ['g']]);
    t.is(server.requests.length, 5, 'two 429s were retried');
    t.true(server.requests.every((r) => r.authorization === 'Bearer sk-loopback' && r.model === 'emb-4'));
  } finally {
    await server.close();
  }
});

test('openai-compatible › a provider that keeps failing fails the call after the retries', async (t) => {
  const server = await startEmbeddingsServer({ dimensions: 4, failFirst: 100 });
  try {
    const client = createOpenAiClient({ apiKey: 'k', baseURL: server.baseUrl, maxRetries: 1, timeoutMs: 5000 });
    await t.throwsAsync(createOpenAiEmbedder({ client, model: 'emb-4', dimensions: 4 }).embed(['x']), { message: /rate limiting/ });
    t.is(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

test('openai-compatible › vectors of another size than listed are the provider’s bad answer (502), naming both sizes', async (t) => {
  const server = await startEmbeddingsServer({ dimensions: 8 });
  try {
    const client = createOpenAiClient({ apiKey: 'k', baseURL: server.baseUrl, maxRetries: 0, timeoutMs: 5000 });
    const error = await t.throwsAsync(createOpenAiEmbedder({ client, model: 'emb-listed-6', dimensions: 6 }).embed(['x']));
    t.like(error, { status: 502, code: 'provider_bad_response' });
    t.regex(error!.message, /'emb-listed-6' made vectors of 8 dimensions where 6 were expected/);
  } finally {
    await server.close();
  }
});

const realKey = process.env.OPENAI_API_KEY;
if (realKey) {
  test('openai (real API, OPENAI_API_KEY set) › embeds two texts', async (t) => {
    const client = createOpenAiClient({ apiKey: realKey, baseURL: process.env.OPENAI_BASE_URL, maxRetries: 3, timeoutMs: 30_000 });
    const model = process.env.KBQA_TEST_EMBEDDING_MODEL ?? 'text-embedding-3-small';
    const vectors = await createOpenAiEmbedder({ client, model, dimensions: Number(process.env.KBQA_TEST_EMBEDDING_DIMENSIONS ?? 1536) }).embed(['hello', 'world']);
    t.is(vectors.length, 2);
  });
} else {
  process.stdout.write('skipping the real OpenAI embeddings test: OPENAI_API_KEY is not set\n');
  test.skip('openai (real API) › embeds two texts (skipped: OPENAI_API_KEY is not set)', () => {});
}
