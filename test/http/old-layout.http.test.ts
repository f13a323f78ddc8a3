import test from 'ava';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { indexedText } from '../../consumers/indexer/index.ts';
import { allProjections } from '../../src/capabilities/index.ts';
import { parseEventData } from '../../schemas/events/index.ts';
import { openSqlite, type SqliteDatabase } from '../../src/adapters/sqlite/database.ts';
import { createSqliteCheckpointStore } from '../../src/adapters/sqlite/checkpoint-store.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { createSqliteKeywordIndex } from '../../src/adapters/sqlite/keyword-index.ts';
import { createSqliteReadModelStore } from '../../src/adapters/sqlite/read-model-store.ts';
import { createSqliteVectorIndex } from '../../src/adapters/sqlite/vector-index.ts';
import { handleCommand } from '../../src/app/command-handler.ts';
import { replayReadModels } from '../../src/app/replay.ts';
import { reindexKnowledgeBase } from '../../src/app/reindex.ts';
import { DEFAULT_WORKSPACE } from '../../src/app/services/workspaces.ts';
import { loadConfig } from '../../src/config.ts';
import { batchChunks } from '../../src/domain/document/batches.ts';
import { type Chunk, chunkBlocks } from '../../src/domain/document/chunker.ts';
import { knowledgeBaseDecider } from '../../src/domain/knowledge-base/knowledge-base.ts';
import { createModels } from '../../src/main.ts';
import type { EventStore } from '../../src/ports/event-store.ts';
import { settledDocument } from '../helpers/documents.ts';
import { startServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp.ts';
import { analyzer } from '../helpers/analyzer.ts';

/**
 * A data directory as the code before issue 13 left it: chunk batches in each document's own stream
 * (appended with DocumentParsed in one append, as the old decider did), passages without placement
 * (the old table), the chunk_batches read model, and indexes the old indexer wrote. Opened by
 * today's code, it must list chunks, search, stream events, delete and reindex as before.
 */

const KB = 'kb_old';
const T0 = '2026-01-01T00:00:00.000Z';
const meta = { schemaVersion: 1 };
const SHA = (c: string) => c.repeat(64);

/** Four pages of numbered sentences, sliced by today's chunker into small chunks. */
function chunksOf(documentId: string, topic: string): Chunk[] {
  const blocks = [1, 2, 3, 4].map((page) => ({
    page,
    kind: 'paragraph' as const,
    text: Array.from({ length: 12 }, (_, s) => `On page ${page} the ${topic} note ${s} records detail ${page * 100 + s}.`).join(' '),
    headingPath: ['Notes'],
  }));
  return chunkBlocks(documentId, blocks, { max_tokens: 48, overlap_tokens: 8 });
}

/** The events of one document's life in the old layout, through `DocumentParsed`, and `DocumentIndexed` when `indexed`. */
async function appendOldDocument(store: EventStore, id: string, name: string, chunks: Chunk[], indexed: boolean) {
  const ids = { document_id: id, knowledge_base_id: KB };
  const event = (type: Parameters<typeof parseEventData>[0], data: Record<string, unknown>) => ({ id: randomUUID(), type, data: parseEventData(type, { ...ids, ...data }), metadata: meta });
  const stream = `document-${id}`;
  await store.append(stream, [event('DocumentUploaded', { workspace_id: DEFAULT_WORKSPACE, name, media_type: 'text/plain', size_bytes: 1000, sha256: SHA(id.at(-1)!), metadata: {}, chunking: { max_tokens: 48, overlap_tokens: 8 }, uploaded_at: T0 })], 'no_stream');
  await store.append(stream, [event('DocumentParsingStarted', { attempt: 1, started_at: T0 })], 0);
  const batches = batchChunks(chunks, 2000);
  await store.append(
    stream,
    [
      ...batches.map((batch, i) => event('DocumentChunksExtracted', { attempt: 1, batch_index: i, batch_count: batches.length, chunks: batch })),
      event('DocumentParsed', { attempt: 1, media_type: 'text/plain', page_count: 4, chunk_count: chunks.length, batch_count: batches.length, ocr_pages: [], warnings: [], parse_ms: 5, parsed_at: T0 }),
    ],
    1,
  );
  if (indexed) {
    await store.append(stream, [event('DocumentIndexed', { chunk_count: chunks.length, entity_count: 0, embedding_model: 'kbqa-hash-embed-512', index_ms: 5, indexed_at: T0 })], 2 + batches.length);
  }
  return batches.length;
}

/** What the old indexer wrote for a ready document: passages in the old table, keyword terms, vectors. */
async function indexTheOldWay(db: SqliteDatabase, id: string, chunks: Chunk[]) {
  const put = db.prepare('INSERT INTO passages (namespace, chunk_id, document_id, chunk_index, page, heading_path, text) VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (const c of chunks) put.run(KB, c.chunk_id, id, c.index, c.page, JSON.stringify(c.heading_path), c.text);
  const texts = chunks.map(indexedText);
  await createSqliteKeywordIndex(db, { analyzer }).upsert(KB, chunks.map((c, i) => ({ id: c.chunk_id, documentId: id, text: texts[i]! })));
  const embedder = (await createModels(loadConfig({}), analyzer)).embedders.get('kbqa-hash-embed-512')!;
  const values = await embedder.embed(texts);
  await createSqliteVectorIndex(db).upsert(KB, chunks.map((c, i) => ({ id: c.chunk_id, documentId: id, values: values[i]! })));
}

const OLD_PASSAGES = `CREATE TABLE passages (
  namespace TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL,
  chunk_index INTEGER NOT NULL, page INTEGER NOT NULL, heading_path TEXT NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (namespace, chunk_id)
) WITHOUT ROWID;
CREATE INDEX passages_by_document ON passages (namespace, document_id);`;

const asListed = (documentId: string, name: string) => (c: Chunk) => ({
  id: c.chunk_id,
  object: 'chunk',
  document_id: documentId,
  index: c.index,
  source: name,
  page: c.page,
  paragraph: c.text,
  heading_path: c.heading_path,
  char_start: c.char_start,
  char_end: c.char_end,
  token_count: c.token_count,
  // Chunks parsed before boxes were kept list none.
  boxes: [],
});

test('a data directory of the old layout: chunks listed, searched, streamed, deleted and reindexed by today’s code', async (t) => {
  t.timeout(120_000);
  const dir = tempDir();
  const ready = { id: 'doc_old1', name: 'ready.txt', chunks: chunksOf('doc_old1', 'basalt') };
  const pending = { id: 'doc_old2', name: 'pending.txt', chunks: chunksOf('doc_old2', 'sourdough') };
  t.true(ready.chunks.length > 8, 'enough chunks to page through');
  let readyBatches = 0;
  {
    const db = openSqlite(join(dir.path, 'kbqa.db'));
    const store = createSqliteEventStore({ db });
    await handleCommand(store, knowledgeBaseDecider, KB, {
      type: 'CreateKnowledgeBase',
      data: { knowledge_base_id: KB, workspace_id: DEFAULT_WORKSPACE, name: 'Old', description: null, settings: {}, default_embedding_model: 'kbqa-hash-embed-512' },
      metadata: { now: T0 },
    });
    readyBatches = await appendOldDocument(store, ready.id, ready.name, ready.chunks, true);
    // Parsed, but the old process stopped before indexing it.
    await appendOldDocument(store, pending.id, pending.name, pending.chunks, false);
    db.exec(OLD_PASSAGES);
    await indexTheOldWay(db, ready.id, ready.chunks);
    // The read models the old projector kept (today's projections are the same but for chunk_batches).
    const readModels = createSqliteReadModelStore(db);
    await replayReadModels({ store, readModels, checkpoints: createSqliteCheckpointStore(db), projections: allProjections });
    await readModels.commit([
      { op: 'put', collection: 'chunk_batches', id: `${ready.id}:000000`, doc: { id: `${ready.id}:000000`, document_id: ready.id, chunks: ready.chunks }, position: 5n },
    ]);
    await store.close();
    db.close();
  }
  t.true(readyBatches > 1, 'several batches in the old document stream');

  const server = await startServer({ KBQA_DATA_DIR: dir.path });
  try {
    const { call, runtime } = server;
    const docPath = (id: string) => `/v1/knowledge-bases/${KB}/documents/${id}`;
    t.is((await settledDocument(server, KB, ready.id)).status, 'ready');
    t.is((await settledDocument(server, KB, pending.id)).status, 'ready', 'the indexer reads chunk batches from the old document stream');

    // The chunk list: passages, placed on open from the log.
    for (const doc of [ready, pending]) {
      const all = await call('GET', `${docPath(doc.id)}/chunks?limit=1000`);
      t.deepEqual(all.body, { object: 'list', data: doc.chunks.map(asListed(doc.id, doc.name)), has_more: false });
    }
    const page = await call('GET', `${docPath(ready.id)}/chunks?limit=3&after=4`);
    t.deepEqual(page.body.data.map((c: { index: number }) => c.index), [5, 6, 7]);
    t.true(page.body.has_more);
    t.deepEqual(await runtime.readModels.find('chunk_batches'), [], 'the old chunk_batches read model is dropped');
    t.deepEqual(await runtime.indexes.passages.unplaced(null, 10), []);
    t.like(await runtime.readModels.get('upgrades', 'chunk_streams'), { passages_placed: 1 }, 'done once, and marked');

    // Search finds both documents' text.
    const basalt = await call('POST', `/v1/knowledge-bases/${KB}/search`, { json: { query: 'basalt note detail 203', top_k: 3 } });
    t.is(basalt.body.data[0].document_id, ready.id);
    const sourdough = await call('POST', `/v1/knowledge-bases/${KB}/search`, { json: { query: 'sourdough note detail 407', top_k: 3 } });
    t.is(sourdough.body.data[0].document_id, pending.id);

    // The event stream of the old document: the document as the read model has it, ready, and the end.
    const res = await fetch(`${server.url}${docPath(ready.id)}/events`, { headers: { authorization: 'Bearer test-admin-key-0123456789abcdef' } });
    const told = [...(await res.text()).matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => [m[1], JSON.parse(m[2]!).status]);
    t.deepEqual(told, [['document', 'ready']]);

    // Reindex reads the old layout too, and writes passages again.
    await runtime.indexes.passages.deleteByDocument(KB, ready.id);
    t.deepEqual((await call('GET', `${docPath(ready.id)}/chunks`)).body.data, []);
    const reindexed = await reindexKnowledgeBase({
      store: runtime.store,
      readModels: runtime.readModels,
      vectors: runtime.indexes.vectors,
      passages: runtime.indexes.passages,
      embedders: runtime.embedders,
      knowledgeBaseId: KB,
    });
    t.is(reindexed.chunks, ready.chunks.length + pending.chunks.length);
    t.deepEqual((await call('GET', `${docPath(ready.id)}/chunks?limit=1000`)).body.data, ready.chunks.map(asListed(ready.id, ready.name)));

    // A command on an old document folds its stream past the batches.
    t.is((await call('DELETE', docPath(ready.id))).status, 200);
    t.is((await call('GET', `${docPath(ready.id)}/chunks`)).status, 404);
  } finally {
    await server.close();
    dir.remove();
  }
});
