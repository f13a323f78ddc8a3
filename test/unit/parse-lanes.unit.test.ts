import test from 'ava';
import { createInProcessBus } from '../../src/adapters/local/in-process-bus.ts';
import { createSqliteCheckpointStore } from '../../src/adapters/sqlite/checkpoint-store.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { createSqlitePassageStore } from '../../src/adapters/sqlite/passage-store.ts';
import { foldStream, handleCommand } from '../../src/app/command-handler.ts';
import type { AppContext } from '../../src/app/context.ts';
import { createIdGenerator } from '../../src/app/ids.ts';
import { createLiveFeed } from '../../src/app/live-feed.ts';
import type { WorkerDeps } from '../../src/capabilities/capability.ts';
import { documents } from '../../src/capabilities/documents.ts';
import { documentDecider } from '../../src/domain/document/document.ts';
import { parseLane } from '../../src/domain/document/parse-lane.ts';
import type { DocumentParser, ParseOutcome } from '../../src/ports/document-parser.ts';
import type { Embedder } from '../../src/ports/models.ts';
import type { ReadModelStore } from '../../src/ports/read-models.ts';

const T0 = '2026-11-28T00:00:00.000Z';
const upload = (id: string, name: string, mediaType: string, sizeBytes: number) => ({
  document_id: id,
  knowledge_base_id: 'kb_1',
  workspace_id: 'ws',
  name,
  media_type: mediaType,
  size_bytes: sizeBytes,
  sha256: id.padEnd(64, '0').slice(0, 64).replace(/[^0-9a-f]/g, 'a'),
  metadata: {},
  chunking: { max_tokens: 64, overlap_tokens: 0 },
});

const parsed = (mediaType: string): ParseOutcome => ({
  ok: true,
  mediaType: mediaType as never,
  pageCount: 1,
  chunks: [{ chunk_id: 'c0', index: 0, page: 1, text: 'Basalt cools into columns.', heading_path: [], char_start: 0, char_end: 26, token_count: 4 }],
  ocrPages: [],
  warnings: [],
});

test('the lane of an upload: small files that cannot hold scans apart, PDFs and images never, whatever their size', (t) => {
  t.is(parseLane({ media_type: 'text/markdown', size_bytes: 2_000 }), 'small');
  t.is(parseLane({ media_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', size_bytes: 40_000 }), 'small');
  t.is(parseLane({ media_type: 'text/plain', size_bytes: 5 * 1024 * 1024 }), 'large');
  t.is(parseLane({ media_type: 'application/pdf', size_bytes: 30_000 }), 'large');
  t.is(parseLane({ media_type: 'image/png', size_bytes: 9_000 }), 'large');
});

/**
 * The documents capability's worker groups, as a worker process subscribes them, over a real log
 * and bus (SQLite in memory, the in-process bus). The large lane's parser holds its parse until the
 * test lets it go, standing for a long OCR job; the small lane's answers at once.
 */
async function world() {
  const db = openSqlite(':memory:');
  const store = createSqliteEventStore({ db });
  const bus = createInProcessBus({ store, checkpoints: createSqliteCheckpointStore(db) });
  const ctx: AppContext = {
    store,
    readModels: { get: async () => ({ settings: { embedding_model: 'zero' } }) } as unknown as ReadModelStore,
    projections: { waitFor: async () => {} },
    newId: createIdGenerator(),
    now: () => new Date(T0),
    consistencyTimeoutMs: 1000,
  };
  let release!: () => void;
  const longJob = new Promise<void>((resolve) => (release = resolve));
  const large: DocumentParser = { parse: async () => (await longJob, parsed('application/pdf')), ping: async () => {}, close: async () => {} };
  const small: DocumentParser = { parse: async () => parsed('text/markdown'), ping: async () => {}, close: async () => {} };
  const noop = { upsert: async () => {}, deleteByDocument: async () => {}, deleteNamespace: async () => {} };
  const embedder = { model: { id: 'zero' }, embed: async (texts: string[]) => texts.map(() => new Float32Array(4)) } as unknown as Embedder;
  const deps = {
    services: { ctx },
    blobs: { localPath: async () => ({ path: '/dev/null', release: async () => {} }) },
    feed: createLiveFeed(),
    parsers: { large, small },
    limits: {},
    maxUploadBytes: 1 << 20,
    parseTimeoutMs: 60_000,
    parseConcurrency: 1,
    embedders: new Map([['zero', embedder]]),
    indexes: { vectors: noop, keywords: noop, graph: noop, passages: createSqlitePassageStore(db) },
  } as unknown as WorkerDeps;
  const handles = await Promise.all(Object.values(documents.consumers!(deps)).map((group) => bus.subscribe(group)));
  const status = async (id: string) => foldStream(documentDecider, documentDecider.streamId(id), await store.readStream(documentDecider.streamId(id))).status;
  const uploadDocument = (data: ReturnType<typeof upload>) => handleCommand(store, documentDecider, data.document_id, { type: 'UploadDocument', data, metadata: { now: T0 } });
  return { status, uploadDocument, release, close: async () => (await Promise.all(handles.map((h) => h.stop())), db.close()) };
}

/** Waits for a condition, never for a fixed time; fails the test when it does not come. */
async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('a small file uploaded behind a long scan becomes ready while the scan is still parsing', async (t) => {
  const w = await world();
  try {
    await w.uploadDocument(upload('doc_scan', 'scan.pdf', 'application/pdf', 3_000_000));
    await until(async () => (await w.status('doc_scan')) === 'parsing', 'the scan starts parsing');
    await w.uploadDocument(upload('doc_note', 'note.md', 'text/markdown', 120));
    await until(async () => (await w.status('doc_note')) === 'ready', 'the note is ready while the scan parses');
    t.is(await w.status('doc_scan'), 'parsing');
    w.release();
    await until(async () => (await w.status('doc_scan')) === 'ready', 'the scan is ready once its parse ends');
    t.pass();
  } finally {
    w.release();
    await w.close();
  }
});
