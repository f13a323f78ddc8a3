import test from 'ava';
import { reindexKnowledgeBase } from '../../src/app/reindex.ts';
import { settledDocument } from '../helpers/documents.ts';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let kb: SampleKb;

test.before(async () => {
  server = await startServer();
  kb = await sampleKnowledgeBase(server, { recall: { vector: true, keyword: true, graph: true }, rerank: { enabled: false } });
});
test.after.always(() => server?.close());

const search = (body: Record<string, unknown>) => server.call('POST', `/v1/knowledge-bases/${kb.kbId}/search`, { json: body });

test.serial('passages indexed before names were kept still show their document’s name, and reindex gives them one', async (t) => {
  const body = { query: 'active volcano flour turbine', top_k: 10, explain: true };
  const before = (await search(body)).body;
  const chunkIds = before.data.map((h: { chunk_id: string }) => h.chunk_id);
  const { passages } = server.runtime.indexes;
  const stored = await passages.get(kb.kbId, chunkIds);
  t.deepEqual([...new Set([...stored.values()].map((p) => p.documentName))].sort(), ['erebus.md', 'sourdough.txt', 'zephyr-9.pdf'], 'the indexer wrote the names');
  await passages.upsert(kb.kbId, [...stored.values()].map((p) => ({ ...p, documentName: null })));
  t.deepEqual((await search(body)).body, before, 'the same results, named from the documents');

  const { runtime } = server;
  await reindexKnowledgeBase({ store: runtime.store, readModels: runtime.readModels, vectors: runtime.indexes.vectors, passages, embedders: runtime.embedders, knowledgeBaseId: kb.kbId });
  t.deepEqual([...(await passages.get(kb.kbId, chunkIds)).values()], [...stored.values()], 'reindex rewrote them with their names');
  t.deepEqual((await search(body)).body, before);
});

test.serial('a metadata filter follows documents that become ready or are deleted after its knowledge base was first filtered', async (t) => {
  const filtered = { query: 'quokka marsupials', filter: { metadata: { topic: ['zoology', 'geology'] } }, top_k: 10 };
  const geologyOnly = (await search(filtered)).body.data.map((h: { document_id: string }) => h.document_id);
  t.true(geologyOnly.every((id: string) => id === kb.docs.volcano));
  const { body: upload } = await server.call('POST', `/v1/knowledge-bases/${kb.kbId}/documents`, {
    json: { name: 'quokka.txt', text: 'Quokkas are small marsupials found on Rottnest Island.', metadata: { topic: 'zoology' } },
  });
  const id = upload.data[0].id;
  await settledDocument(server, kb.kbId, id);
  t.is((await search(filtered)).body.data[0]?.document_id, id, 'ready, so filtered in');
  t.deepEqual((await search({ ...filtered, filter: { metadata: { topic: 'geology' } } })).body.data.map((h: { document_id: string }) => h.document_id).includes(id), false);
  await server.call('DELETE', `/v1/knowledge-bases/${kb.kbId}/documents/${id}`);
  t.false((await search(filtered)).body.data.some((h: { document_id: string }) => h.document_id === id), 'deleted, so gone');
});
