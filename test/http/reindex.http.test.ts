import test from 'ava';
import { reindexKnowledgeBase } from '../../src/app/reindex.ts';
import { settledDocument } from '../helpers/documents.ts';
import { startEmbeddingsServer } from '../helpers/openai-compatible-server.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

const texts = ['Basalt is a volcanic rock.', 'Sourdough rises slowly overnight.', 'Turbines turn wind into power.'];

/** A knowledge base searched by its vectors alone, on the offline embedder, with one ready document per text. */
async function vectorOnlyKnowledgeBase(server: TestServer) {
  const kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'moving', settings: { recall: { vector: true, keyword: false, graph: false }, rerank: { enabled: false } } } })).body;
  const docs = [];
  for (const [i, text] of texts.entries()) {
    const up = await server.call('POST', `/v1/knowledge-bases/${kb.id}/documents`, { json: { name: `d${i}.txt`, text } });
    docs.push(await settledDocument(server, kb.id, up.body.data[0].id));
  }
  return { kb, docs, chunks: docs.reduce((n, d) => n + d.chunk_count, 0) };
}

test('reindex re-embeds a knowledge base from the log after its embedding model changed, and resumes when interrupted', async (t) => {
  const provider = await startEmbeddingsServer({ dimensions: 16 });
  const server = await startServer({ OPENAI_API_KEY: 'sk-loopback', OPENAI_BASE_URL: provider.baseUrl, KBQA_OPENAI_EMBEDDING_MODELS: 'loop-embed:16' });
  try {
    const { call, runtime } = server;
    const { kb, docs, chunks } = await vectorOnlyKnowledgeBase(server);
    t.is(provider.requests.length, 0, 'indexed offline first');

    await call('PATCH', `/v1/knowledge-bases/${kb.id}`, { json: { settings: { embedding_model: 'loop-embed' } } });
    const deps = { store: runtime.store, readModels: runtime.readModels, vectors: runtime.indexes.vectors, passages: runtime.indexes.passages, embedders: runtime.embedders, knowledgeBaseId: kb.id };
    const interrupted = reindexKnowledgeBase({
      ...deps,
      onProgress: (p) => {
        if (p.documents === 2) throw new Error('killed');
      },
    });
    await t.throwsAsync(interrupted, { message: 'killed' });
    const seen: number[] = [];
    const resumed = await reindexKnowledgeBase({ ...deps, onProgress: (p) => seen.push(p.documents) });
    t.true(resumed.resumed);
    t.deepEqual(seen, [2, 3], 'the two finished documents are not embedded again');
    t.is(resumed.chunks, chunks);
    t.is(await runtime.indexes.vectors.count(kb.id), chunks, 'only vectors of the new model remain');
    const embedded = provider.requests.flatMap((r) => r.inputs);
    t.is(embedded.length, chunks, 'each chunk embedded once by the new model');

    const hits = (await call('POST', `/v1/knowledge-bases/${kb.id}/search`, { json: { query: 'volcanic rock', top_k: 3 } })).body;
    t.is(hits.data.length, 3, 'vector search works with the new model');
    const again = await reindexKnowledgeBase(deps);
    t.false(again.resumed, 'a finished reindex leaves nothing to resume');
  } finally {
    await server.close();
    await provider.close();
  }
});

test('POST /v1/knowledge-bases/{id}/reindex after the embedding model changed: the reindexer replaces the vectors, search ranks by the new model, progress ends succeeded', async (t) => {
  const provider = await startEmbeddingsServer({ dimensions: 16 });
  const server = await startServer({ OPENAI_API_KEY: 'sk-loopback', OPENAI_BASE_URL: provider.baseUrl, KBQA_OPENAI_EMBEDDING_MODELS: 'loop-embed:16' });
  try {
    const { call, runtime } = server;
    const { kb, docs, chunks } = await vectorOnlyKnowledgeBase(server);
    await call('PATCH', `/v1/knowledge-bases/${kb.id}`, { json: { settings: { embedding_model: 'loop-embed' } } });

    const accepted = await call('POST', `/v1/knowledge-bases/${kb.id}/reindex`);
    t.is(accepted.status, 202);
    t.like(accepted.body, { object: 'knowledge_base.reindex', knowledge_base_id: kb.id, embedding_model: 'loop-embed' });
    let reindex = accepted.body;
    for (const deadline = Date.now() + 30_000; !['succeeded', 'failed'].includes(reindex.status) && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      reindex = (await call('GET', `/v1/knowledge-bases/${kb.id}`)).body.reindex;
    }
    t.like(reindex, { id: accepted.body.id, status: 'succeeded', done: 3, total: 3, chunks, error: null });
    t.truthy(reindex.started_at && reindex.finished_at);
    t.is(await runtime.indexes.vectors.count(kb.id), chunks, 'only vectors of the new model remain');
    t.is(provider.requests.flatMap((r) => r.inputs).length, chunks, 'each chunk embedded once by the new model');

    // The loopback model's vectors are hashes of the text: only its own vector of a passage matches the query's exactly.
    const hits = (await call('POST', `/v1/knowledge-bases/${kb.id}/search`, { json: { query: texts[1], top_k: 3, explain: true } })).body;
    t.is(hits.data[0].document_id, docs[1].id);
    t.true(hits.data[0].scores.vector > 0.99, `the new model's vector matches: ${hits.data[0].scores.vector}`);
    t.is((await call('POST', `/v1/knowledge-bases/${kb.id}/reindex`)).status, 202, 'a finished re-index may be asked for again');
  } finally {
    await server.close();
    await provider.close();
  }
});

test('reindex re-embeds a document whose newest version failed: its current version still answers (issue 44)', async (t) => {
  const provider = await startEmbeddingsServer({ dimensions: 16 });
  const server = await startServer({ OPENAI_API_KEY: 'sk-loopback', OPENAI_BASE_URL: provider.baseUrl, KBQA_OPENAI_EMBEDDING_MODELS: 'loop-embed:16' });
  try {
    const { call, runtime, url } = server;
    const { kb, docs, chunks } = await vectorOnlyKnowledgeBase(server);
    const broken = new FormData();
    broken.append('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.7\nthis is not really a pdf at all\n%%EOF'))]), 'd0.pdf');
    const res = await fetch(`${url}/v1/knowledge-bases/${kb.id}/documents/${docs[0].id}/versions`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}` }, body: broken });
    t.is(res.status, 201);
    t.like(await settledDocument(server, kb.id, docs[0].id), { status: 'failed', version: 2, current_version: 1 });

    await call('PATCH', `/v1/knowledge-bases/${kb.id}`, { json: { settings: { embedding_model: 'loop-embed' } } });
    const done = await reindexKnowledgeBase({ store: runtime.store, readModels: runtime.readModels, vectors: runtime.indexes.vectors, passages: runtime.indexes.passages, embedders: runtime.embedders, knowledgeBaseId: kb.id });
    t.like(done, { documents: 3, totalDocuments: 3, chunks });
    t.is(await runtime.indexes.vectors.count(kb.id), chunks, 'the failed version’s document keeps its vectors');
    const hits = (await call('POST', `/v1/knowledge-bases/${kb.id}/search`, { json: { query: texts[0], top_k: 1 } })).body;
    t.like(hits.data[0], { document_id: docs[0].id, document_version: 1 });
  } finally {
    await server.close();
    await provider.close();
  }
});
