import test from 'ava';
import { MINILM } from '../../src/adapters/local/local-model-specs.ts';
import { HASHING_EMBEDDER_ID } from '../../src/adapters/local/hashing-embedder.ts';
import { MODELS_DIR, miniLmForTests } from '../helpers/local-model.ts';
import { captureLogs } from '../helpers/logs.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { settledDocument } from '../helpers/documents.ts';
import { tempDir } from '../helpers/temp.ts';

const folder = miniLmForTests();
const withModel = folder ? test.serial : test.serial.skip;

test('choosing the local model where its folder is not installed is a 400 model_not_installed that says what to do', async (t) => {
  const empty = tempDir();
  t.teardown(empty.remove);
  const logs = captureLogs();
  const server = await startServer({ KBQA_MODELS_DIR: empty.path }, { logger: logs.logger });
  t.teardown(() => server.close());
  const { status, body } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'semantic', settings: { embedding_model: MINILM.id } } });
  t.is(status, 400);
  t.is(body.error.code, 'model_not_installed');
  t.is(body.error.param, 'settings.embedding_model');
  t.regex(body.error.message, /^settings\.embedding_model: local\/all-minilm-l6-v2 is a built-in local model whose folder is not installed on this server; .*npm run models:fetch.*\.$/);
  t.false(body.error.message.includes(empty.path), 'no server path in the answer');
  const models = (await server.call('GET', '/v1/models')).body.data.map((m: { id: string }) => m.id);
  t.false(models.includes(MINILM.id), '/v1/models lists only what is served');
  const line = await logs.waitFor((l) => l.msg.startsWith('local models:'));
  t.is(line.msg, 'local models: none installed');
  t.deepEqual(line.local_models, [{ id: MINILM.id, state: 'missing', bytes: 0 }]);
  // A plain start keeps the offline embedder as the default.
  const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'plain' } });
  t.is(kb.settings.embedding_model, HASHING_EMBEDDER_ID);
});

const PASSAGES = {
  password: 'To regain entry to your profile after forgetting your secret phrase, open the sign-in page and follow the recovery link sent by email.',
  tides: 'The gravitational pull of the moon raises bulges of ocean water that sweep around the planet twice a day.',
  bread: 'Sourdough rises because wild yeast and lactobacilli ferment the flour and release carbon dioxide.',
  // The question's words, another meaning: what word overlap finds first.
  cabin: 'The old log cabin stands at the back of the forest, where the roads end.',
};

async function knowledgeBaseOf(server: TestServer, embeddingModel: string): Promise<string> {
  const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: embeddingModel, settings: { embedding_model: embeddingModel } } });
  for (const [name, text] of Object.entries(PASSAGES)) {
    const { body } = await server.call('POST', `/v1/knowledge-bases/${kb.id}/documents`, { json: { name: `${name}.txt`, text } });
    const doc = await settledDocument(server, kb.id, body.data[0].id);
    if (doc.status !== 'ready') throw new Error(`${name}: ${JSON.stringify(doc.error)}`);
  }
  return kb.id;
}

/** Vector search alone, without the (lexical) offline reranker: the embedder's order. */
const topSource = async (server: TestServer, kbId: string, query: string) => {
  const { body } = await server.call('POST', `/v1/knowledge-bases/${kbId}/search`, { json: { query, mode: 'vector', rerank: false, top_k: 3 } });
  return body.data[0]?.source as string | undefined;
};

withModel('a knowledge base with the local model ingests and finds a paraphrase by meaning, where the hashing embedder does not', async (t) => {
  const logs = captureLogs();
  const server = await startServer({ KBQA_MODELS_DIR: MODELS_DIR }, { logger: logs.logger });
  t.teardown(() => server.close());
  t.is((await logs.waitFor((l) => l.msg.startsWith('local models:'))).msg, `local models: ${MINILM.id}`);
  t.true((await server.call('GET', '/v1/models')).body.data.some((m: { id: string; type: string }) => m.id === MINILM.id && m.type === 'embedding'));
  const semantic = await knowledgeBaseOf(server, MINILM.id);
  const lexical = await knowledgeBaseOf(server, HASHING_EMBEDDER_ID);
  // No word of the question is in the passage it asks about; the cabin has two of them.
  const query = 'I forgot my password, how can I log back into my account?';
  t.is(await topSource(server, semantic, query), 'password.txt');
  t.is(await topSource(server, lexical, query), 'cabin.txt');
  t.is(await topSource(server, semantic, 'why are there high and low tides'), 'tides.txt');
  const { body } = await server.call('POST', '/v1/embeddings', { json: { model: MINILM.id, input: ['one', 'two'] } });
  t.is(body.data.length, 2);
  t.is(body.data[0].embedding.length, 384);
});
