import test from 'ava';
import { indexerConsumer, type IndexerDeps } from '../../consumers/indexer/index.ts';
import { parserConsumer, type ParserDeps } from '../../consumers/parser/index.ts';
import type { KnowledgeBaseDoc } from '../../projections/knowledge-bases/index.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { createSqlitePassageStore } from '../../src/adapters/sqlite/passage-store.ts';
import { handleCommand } from '../../src/app/command-handler.ts';
import type { AppContext } from '../../src/app/context.ts';
import { createIdGenerator } from '../../src/app/ids.ts';
import { createLiveFeed } from '../../src/app/live-feed.ts';
import type { Chunk } from '../../src/domain/document/chunker.ts';
import { documentDecider } from '../../src/domain/document/document.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';
import type { Embedder } from '../../src/ports/models.ts';
import type { ReadModelStore } from '../../src/ports/read-models.ts';
import { countingStore } from '../helpers/counting-store.ts';
import { uploadData } from '../helpers/upload-fixtures.ts';

const T0 = '2026-01-01T00:00:00.000Z';
const upload = uploadData('doc_1');
const chunk = (index: number): Chunk => ({ chunk_id: `c${index}`, index, page: 1, text: `Sentence ${index} about basalt.`, heading_path: [], char_start: index * 30, char_end: index * 30 + 27, token_count: 5 });
const CHUNKS = [0, 1, 2].map(chunk);

/**
 * The parser's two appends, with a crash between them on the first try; then the indexer. A fake
 * parse (three chunks), an embedder of zeros, and indexes that only note what they were given;
 * the log and the passages are real (SQLite).
 */
async function world() {
  const db = openSqlite(':memory:');
  const base = createSqliteEventStore({ db });
  let crash = true;
  const { store, calls } = countingStore(base, async (streamId) => {
    if (streamId === 'document-doc_1' && crash && calls.appends.some((s) => s.startsWith('document_chunks-'))) {
      crash = false;
      throw new Error('killed between the two appends');
    }
  });
  const kb = { settings: { embedding_model: 'zero' } } as KnowledgeBaseDoc;
  const ctx: AppContext = {
    store,
    readModels: { get: async () => kb } as unknown as ReadModelStore,
    projections: { waitFor: async () => {} },
    newId: createIdGenerator(),
    now: () => new Date(T0),
    consistencyTimeoutMs: 1000,
  };
  const feed = createLiveFeed();
  const parser = parserConsumer({
    lane: 'small',
    ctx,
    feed,
    blobs: { localPath: async () => ({ path: '/dev/null', release: async () => {} }) },
    parser: { parse: async () => ({ ok: true, mediaType: 'text/plain', pageCount: 1, chunks: CHUNKS, ocrPages: [], warnings: [] }) },
    limits: {},
    timeoutMs: 1000,
    concurrency: 1,
  } as unknown as ParserDeps);
  const vectors: string[] = [];
  const embedder = { model: { id: 'zero' }, embed: async (texts: string[]) => texts.map(() => new Float32Array(4)) } as unknown as Embedder;
  const passages = createSqlitePassageStore(db);
  const noop = { upsert: async () => {}, deleteByDocument: async () => {}, deleteNamespace: async () => {} };
  const indexer = indexerConsumer({
    ctx,
    feed,
    embedders: new Map([['zero', embedder]]),
    vectors: { ...noop, upsert: async (_ns: string, records: { id: string }[]) => void vectors.push(...records.map((r) => r.id)) },
    keywords: noop,
    graph: noop,
    passages,
  } as unknown as IndexerDeps);
  return { base, store, calls, parser, indexer, vectors, passages, close: () => db.close() };
}

const of = (events: RecordedEvent[], type: string) => events.filter((e) => e.type === type);

test('a parse cut between its two appends leaves a chunk stream nothing reads; the redelivered upload parses as the next attempt, and that is what is indexed', async (t) => {
  const w = await world();
  try {
    await handleCommand(w.base, documentDecider, 'doc_1', { type: 'UploadDocument', data: upload, metadata: { now: T0 } });
    const [uploaded] = await w.base.readStream('document-doc_1');
    await t.throwsAsync(w.parser.handle([uploaded!]), { message: 'killed between the two appends' });
    t.is((await w.base.readStream('document_chunks-doc_1-1')).length, 1, 'the first attempt’s chunks are in the log');
    t.is(of(await w.base.readStream('document-doc_1'), 'DocumentParsed').length, 0, 'but its parse is not');

    await w.parser.handle([uploaded!]);
    const lifecycle = await w.base.readStream('document-doc_1');
    t.deepEqual(lifecycle.map((e) => e.type), ['DocumentUploaded', 'DocumentParsingStarted', 'DocumentParsingStarted', 'DocumentParsed']);
    t.like(lifecycle[3]!.data, { attempt: 2, batch_count: 1, chunk_count: 3 });
    t.is((await w.base.readStream('document_chunks-doc_1-2')).length, 1);

    w.calls.reads.length = 0;
    await w.indexer.handle([lifecycle[3]!]);
    t.deepEqual(w.calls.reads, ['document-doc_1', 'document_chunks-doc_1-2'], 'the lifecycle once, the parsed attempt’s chunk stream once');
    // The parser names chunks by their content (issue 44): the ids are the second attempt's, as its chunk stream holds them.
    const [batch] = await w.base.readStream('document_chunks-doc_1-2');
    const ids = (batch!.data as { chunks: { chunk_id: string }[] }).chunks.map((c) => c.chunk_id);
    t.is(ids.length, 3);
    t.deepEqual(w.vectors, ids);
    t.deepEqual((await w.passages.listByDocument('kb_1', 'doc_1', { limit: 10 })).map((p) => [p.chunkId, p.charStart, p.charEnd, p.tokenCount]), [
      [ids[0], 0, 27, 5],
      [ids[1], 30, 57, 5],
      [ids[2], 60, 87, 5],
    ]);
    t.is((await w.base.readStream('document-doc_1')).at(-1)!.type, 'DocumentIndexed');
  } finally {
    w.close();
  }
});

test('the parser reads the document’s stream once per parse (StartParsing), and no chunk stream', async (t) => {
  const w = await world();
  try {
    await handleCommand(w.base, documentDecider, 'doc_1', { type: 'UploadDocument', data: upload, metadata: { now: T0 } });
    const [uploaded] = await w.base.readStream('document-doc_1');
    await t.throwsAsync(w.parser.handle([uploaded!]));
    w.calls.reads.length = 0;
    w.calls.appends.length = 0;
    await w.parser.handle([uploaded!]);
    t.deepEqual(w.calls.reads, ['document-doc_1']);
    t.deepEqual(w.calls.appends, ['document-doc_1', 'document_chunks-doc_1-2', 'document-doc_1']);
  } finally {
    w.close();
  }
});
