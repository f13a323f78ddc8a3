import test from 'ava';
import { randomUUID } from 'node:crypto';
import { parseEventData } from '../../schemas/events/index.ts';
import type { FeedMessage } from '../../src/app/live-feed.ts';
import { documentStory, lifecycleMessage } from '../../src/http/document-story.ts';
import { sqliteLog } from '../helpers/sqlite-log.ts';

const T0 = '2026-01-01T00:00:00.000Z';
const ids = { document_id: 'doc_1', knowledge_base_id: 'kb_1' };
const chunk = (index: number) => ({ chunk_id: `c${index}`, index, page: 1, text: `Chunk ${index}.`, heading_path: [], char_start: 0, char_end: 9, token_count: 3 });
const event = (type: Parameters<typeof parseEventData>[0], data: Record<string, unknown>) => ({
  id: randomUUID(),
  type,
  data: parseEventData(type, { ...ids, ...data }),
  metadata: { schemaVersion: 1 },
});
const batch = (attempt: number, i: number, of: number, chunks: number[]) => event('DocumentChunksExtracted', { attempt, batch_index: i, batch_count: of, chunks: chunks.map(chunk) });
const parsed = (attempt: number, chunks: number, batches: number) =>
  event('DocumentParsed', { attempt, media_type: 'text/plain', page_count: 1, chunk_count: chunks, batch_count: batches, ocr_pages: [], warnings: [], parse_ms: 1, parsed_at: T0 });
const upload = event('DocumentUploaded', { workspace_id: 'w', name: 'a.txt', media_type: 'text/plain', size_bytes: 1, sha256: 'a'.repeat(64), metadata: {}, chunking: { max_tokens: 64, overlap_tokens: 0 }, uploaded_at: T0 });
const started = (attempt: number) => event('DocumentParsingStarted', { attempt, started_at: T0 });
const indexed = event('DocumentIndexed', { chunk_count: 3, entity_count: 0, embedding_model: 'm', index_ms: 1, indexed_at: T0 });

const told = (messages: FeedMessage[]) => messages.map((m) => [m.event, m.data.revision, m.data.batch_index ?? m.data.attempt ?? null]);

test('chunk streams: the parsed attempt’s batches are told before DocumentParsed, numbered as in the old layout; an interrupted attempt’s are not', async (t) => {
  const log = sqliteLog();
  try {
    const { store } = log;
    await store.append('document-doc_1', [upload, started(1)], 'no_stream');
    await store.append('document_chunks-doc_1-1', [batch(1, 0, 1, [0, 1, 2])], 'no_stream'); // the parser died here
    await store.append('document-doc_1', [started(2)], 1);
    await store.append('document_chunks-doc_1-2', [batch(2, 0, 2, [0, 1]), batch(2, 1, 2, [2])], 'no_stream');
    await store.append('document-doc_1', [parsed(2, 3, 2), indexed], 2);
    const lifecycle = (await store.readStream('document-doc_1')).map(lifecycleMessage);
    const tell = documentStory(store);
    const out: FeedMessage[] = [];
    for (const m of lifecycle) out.push(...(await tell(m)));
    t.deepEqual(told(out), [
      ['DocumentUploaded', 0, null],
      ['DocumentParsingStarted', 1, 1],
      ['DocumentParsingStarted', 2, 2],
      ['DocumentChunksExtracted', 3, 0],
      ['DocumentChunksExtracted', 4, 1],
      ['DocumentParsed', 5, 2],
      ['DocumentIndexed', 6, null],
    ]);
    t.like(out[3]!.data, { chunk_count: 2, batch_count: 2, attempt: 2 });
    t.false('chunks' in out[3]!.data);
    // The live feed repeats what the log already told, and sends progress: told once, progress passes.
    const again: FeedMessage[] = [];
    for (const m of [lifecycle[3]!, { event: 'progress', data: { stage: 'indexing', chunks_indexed: 3 } }, lifecycle[4]!]) again.push(...(await tell(m)));
    t.deepEqual(told(again), [['progress', undefined, null]]);
  } finally {
    await log.close();
  }
});

test('live: a story that starts before the parse tells the batches when DocumentParsed arrives', async (t) => {
  const log = sqliteLog();
  try {
    const { store } = log;
    await store.append('document-doc_1', [upload, started(1)], 'no_stream');
    const tell = documentStory(store);
    const out: FeedMessage[] = [];
    for (const m of (await store.readStream('document-doc_1')).map(lifecycleMessage)) out.push(...(await tell(m)));
    await store.append('document_chunks-doc_1-1', [batch(1, 0, 1, [0, 1, 2])], 'no_stream');
    await store.append('document-doc_1', [parsed(1, 3, 1), indexed], 1);
    // What the announcer publishes as the projector applies them.
    for (const e of (await store.readStream('document-doc_1')).slice(2)) out.push(...(await tell(lifecycleMessage(e))));
    t.deepEqual(told(out).map(([e, r]) => [e, r]), [
      ['DocumentUploaded', 0],
      ['DocumentParsingStarted', 1],
      ['DocumentChunksExtracted', 2],
      ['DocumentParsed', 3],
      ['DocumentIndexed', 4],
    ]);
  } finally {
    await log.close();
  }
});

test('a chunk stream that does not hold what DocumentParsed says fails the story', async (t) => {
  const log = sqliteLog();
  try {
    const { store } = log;
    await store.append('document-doc_1', [upload, started(1), parsed(1, 3, 2)], 'no_stream');
    await store.append('document_chunks-doc_1-1', [batch(1, 0, 2, [0, 1])], 'no_stream');
    const tell = documentStory(store);
    const [, , p] = (await store.readStream('document-doc_1')).map(lifecycleMessage);
    await t.throwsAsync(tell(p!), { message: /document_chunks-doc_1-1 holds 1 batches of 2 chunks; DocumentParsed names 2 of 3/ });
  } finally {
    await log.close();
  }
});
