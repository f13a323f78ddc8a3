import test from 'ava';
import { MAX_BATCH_BYTES } from '../../src/domain/document/batches.ts';
import type { Chunk } from '../../src/domain/document/chunker.ts';
import { chunk } from '../helpers/chunks.ts';
import { chunkStreamDecider, type ChunkStreamEvent } from '../../src/domain/document/chunk-stream.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(chunkStreamDecider);
const T1 = '2026-01-01T00:01:00.000Z';
const ids = { document_id: 'doc_1', knowledge_base_id: 'kb_1', attempt: 2 };

const record = (chunks: Chunk[]) => ({ type: 'RecordChunks' as const, data: { ...ids, chunks }, metadata: at(T1) });
const batch = (batch_index: number, batch_count: number, chunks: Chunk[]): ChunkStreamEvent => ({
  type: 'DocumentChunksExtracted',
  data: { ...ids, batch_index, batch_count, chunks },
});

test('the stream of a document and attempt', (t) => {
  t.is(chunkStreamDecider.streamId('doc_1-2'), 'document_chunks-doc_1-2');
});

test('record chunks: an attempt’s chunks travel in one batch when they fit', (t) => {
  spec(t)
    .given()
    .when(record([chunk(0), chunk(1)]))
    .then([batch(0, 1, [chunk(0), chunk(1)])]);
});

test('record chunks: chunks over the batch budget are split into consecutive batches', (t) => {
  const big = (i: number) => chunk(i, 'x'.repeat(Math.floor(MAX_BATCH_BYTES / 2.5)));
  spec(t)
    .given()
    .when(record([big(0), big(1), big(2)]))
    .then([batch(0, 2, [big(0), big(1)]), batch(1, 2, [big(2)])]);
});

test('record chunks: no chunks, no batches (and no stream)', (t) => {
  spec(t).given().when(record([])).then([]);
});

test('record chunks: an attempt already recorded stays as it is (a retried append)', (t) => {
  spec(t)
    .given(batch(0, 1, [chunk(0)]))
    .when(record([chunk(0)]))
    .then([]);
});

test('the state counts what the stream holds', (t) => {
  const state = [batch(0, 2, [chunk(0), chunk(1)]), batch(1, 2, [chunk(2)])].reduce(chunkStreamDecider.evolve, chunkStreamDecider.initialState());
  t.deepEqual(state, { batchCount: 2, chunkCount: 3 });
});
