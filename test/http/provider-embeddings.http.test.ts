import test from 'ava';
import { settledDocument } from '../helpers/documents.ts';
import { startEmbeddingsServer } from '../helpers/openai-compatible-server.ts';
import { startServer } from '../helpers/server.ts';

test('a configured OpenAI-compatible embedding model is listed, selectable per knowledge base, and used to index', async (t) => {
  const provider = await startEmbeddingsServer({ dimensions: 16 });
  const server = await startServer({ OPENAI_API_KEY: 'sk-loopback', OPENAI_BASE_URL: provider.baseUrl, KBQA_OPENAI_EMBEDDING_MODELS: 'loop-embed:16' });
  try {
    const models = (await server.call('GET', '/v1/models')).body.data.map((m: { id: string }) => m.id);
    t.true(models.includes('kbqa-hash-embed-512'));
    t.true(models.includes('loop-embed'));
    const kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'provider', settings: { embedding_model: 'loop-embed' } } })).body;
    t.is(kb.settings.embedding_model, 'loop-embed');
    const up = await server.call('POST', `/v1/knowledge-bases/${kb.id}/documents`, { json: { name: 'p.txt', text: 'Embedded by the provider, not offline.' } });
    const doc = await settledDocument(server, kb.id, up.body.data[0].id);
    t.is(doc.status, 'ready');
    t.true(provider.requests.some((r) => r.model === 'loop-embed' && r.inputs.some((i) => i.includes('Embedded by the provider'))));
    t.is(await server.runtime.indexes.vectors.count(kb.id), doc.chunk_count);
  } finally {
    await server.close();
    await provider.close();
  }
});
