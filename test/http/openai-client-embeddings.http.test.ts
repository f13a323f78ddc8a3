import test from 'ava';
import OpenAI from 'openai';
import { startEmbeddingsServer, vectorFor } from '../helpers/openai-compatible-server.ts';
import { ADMIN_KEY, startServer } from '../helpers/server.ts';

// The official openai client, unmodified: it asks for base64 unless told otherwise, and decodes it.

const OFFLINE = 'kbqa-hash-embed-512';

test('the offline embedding model embeds through /v1/embeddings as search embeds, in float and base64', async (t) => {
  const server = await startServer();
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
    const input = ['Mount Erebus is an active volcano.', 'Sourdough rises with wild yeast.'];
    const asBase64 = await client.embeddings.create({ model: OFFLINE, input });
    const asFloat = await client.embeddings.create({ model: OFFLINE, input, encoding_format: 'float', dimensions: 512 });
    t.is(asBase64.model, OFFLINE);
    t.deepEqual(asBase64.data.map((d) => d.index), [0, 1]);
    const expected = await server.runtime.embedders.get(OFFLINE)!.embed(input);
    for (const [i, vector] of expected.entries()) {
      t.deepEqual(asFloat.data[i]!.embedding, Array.from(vector));
      t.deepEqual(asBase64.data[i]!.embedding, Array.from(vector), 'base64 carries the same float32 values');
    }
    t.notDeepEqual(asFloat.data[0]!.embedding, asFloat.data[1]!.embedding);
    t.true(asFloat.usage.prompt_tokens > 0);
    t.is(asFloat.usage.total_tokens, asFloat.usage.prompt_tokens);
    const one = await client.embeddings.create({ model: OFFLINE, input: input[0]!, encoding_format: 'float' });
    t.deepEqual(one.data[0]!.embedding, asFloat.data[0]!.embedding);
  } finally {
    await server.close();
  }
});

test('what an embedding request cannot get is refused by name', async (t) => {
  const server = await startServer();
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
    const shorter = await t.throwsAsync(client.embeddings.create({ model: OFFLINE, input: 'x y', dimensions: 256 }), { instanceOf: OpenAI.BadRequestError });
    t.is(shorter.code, 'unsupported_parameter');
    t.is(shorter.param, 'dimensions');
    const tokens = await t.throwsAsync(client.embeddings.create({ model: OFFLINE, input: [[1, 2, 3]] }), { instanceOf: OpenAI.BadRequestError });
    t.is(tokens.param, 'input');
    const chatModel = await t.throwsAsync(client.embeddings.create({ model: 'kbqa-extractive', input: 'x' }), { instanceOf: OpenAI.NotFoundError });
    t.is(chatModel.code, 'model_not_found');
    const empty = await t.throwsAsync(client.embeddings.create({ model: OFFLINE, input: '' }), { instanceOf: OpenAI.BadRequestError });
    t.is(empty.param, 'input');
    const anonymous = await server.call('POST', '/v1/embeddings', { key: null, json: { model: OFFLINE, input: 'x' } });
    t.is(anonymous.status, 401);
  } finally {
    await server.close();
  }
});

test('a provider embedding model is passed through, dimensions included', async (t) => {
  const provider = await startEmbeddingsServer({ dimensions: 16 });
  const server = await startServer({ OPENAI_API_KEY: 'sk-loopback', OPENAI_BASE_URL: provider.baseUrl, KBQA_OPENAI_EMBEDDING_MODELS: 'loop-embed:16' });
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
    const full = await client.embeddings.create({ model: 'loop-embed', input: ['alpha', 'beta'] });
    t.deepEqual(full.data.map((d) => d.embedding), ['alpha', 'beta'].map((text) => Array.from(Float32Array.from(vectorFor(text, 16)))));
    const short = await client.embeddings.create({ model: 'loop-embed', input: 'gamma', dimensions: 8, encoding_format: 'float' });
    t.deepEqual(short.data[0]!.embedding, Array.from(Float32Array.from(vectorFor('gamma', 8))));
    t.is(provider.requests.at(-1)!.dimensions, 8);
    t.deepEqual(provider.requests.at(-1)!.inputs, ['gamma']);
    t.is(provider.requests[0]!.dimensions, undefined, 'no dimensions asked, none sent');
  } finally {
    await server.close();
    await provider.close();
  }
});
