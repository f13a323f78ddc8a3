import test from 'ava';
import { trustedEvent } from '../../schemas/events/recorded.ts';
import { foldStream } from '../../src/app/command-handler.ts';
import { chunk } from '../helpers/chunks.ts';
import { documentDecider, type DocumentEvent } from '../../src/domain/document/document.ts';
import { DOCUMENT_FAILURES } from '../../src/domain/document/failures.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(documentDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:01:00.000Z';
const T2 = '2026-01-01T00:02:00.000Z';
const SHA = 'a'.repeat(64);
const ids = { document_id: 'doc_1', knowledge_base_id: 'kb_1' };

const upload = {
  ...ids,
  workspace_id: 'ws_a',
  name: 'manual.pdf',
  media_type: 'application/pdf',
  size_bytes: 1234,
  sha256: SHA,
  metadata: { team: 'sales' },
  chunking: { max_tokens: 512, overlap_tokens: 64 },
};

const parse = { media_type: 'application/pdf', page_count: 2, ocr_pages: [2], warnings: ['w'], parse_ms: 40 };
const indexing = { entity_count: 4, embedding_model: 'kbqa-hash-embed-512', index_ms: 30 };

// The life so far, as events.
const uploaded: DocumentEvent = { type: 'DocumentUploaded', data: { ...upload, uploaded_at: T0 } };
const started = (attempt = 1): DocumentEvent => ({ type: 'DocumentParsingStarted', data: { ...ids, attempt, started_at: T1 } });
const parsed: DocumentEvent = { type: 'DocumentParsed', data: { ...ids, attempt: 1, ...parse, chunk_count: 2, batch_count: 1, parsed_at: T1 } };
const indexed: DocumentEvent = { type: 'DocumentIndexed', data: { ...ids, chunk_count: 2, ...indexing, indexed_at: T2 } };
const failed: DocumentEvent = { type: 'DocumentFailed', data: { ...ids, stage: 'parsing', code: 'corrupt', message: 'damaged', failed_at: T1 } };
const deleted: DocumentEvent = { type: 'DocumentDeleted', data: { ...ids, batch_count: 0, indexed_chunk_count: 0, sha256: SHA, deleted_at: T1 } };

const queued = [uploaded];
const parsing = [uploaded, started()];
const indexingDoc = [uploaded, started(), parsed];
const ready = [...indexingDoc, indexed];
const failedDoc = [uploaded, started(), failed];

const stages = { queued, parsing, indexing: indexingDoc, ready, failed: failedDoc };

// UploadDocument

test('upload: a new document is queued at the command time', (t) => {
  spec(t)
    .given()
    .when({ type: 'UploadDocument', data: upload, metadata: at(T0) })
    .then([uploaded]);
});

for (const [status, past] of Object.entries(stages)) {
  test(`upload: an id already ${status} is a conflict`, (t) => {
    spec(t)
      .given(...past)
      .when({ type: 'UploadDocument', data: upload, metadata: at(T2) })
      .thenThrows('conflict', 'document_exists');
  });
}

test('upload: the id of a deleted document is free again', (t) => {
  spec(t)
    .given(uploaded, deleted)
    .when({ type: 'UploadDocument', data: upload, metadata: at(T2) })
    .then([{ type: 'DocumentUploaded', data: { ...upload, uploaded_at: T2 } }]);
});

// StartParsing

test('start parsing: a queued document starts its first attempt', (t) => {
  spec(t)
    .given(...queued)
    .when({ type: 'StartParsing', data: { document_id: 'doc_1' }, metadata: at(T1) })
    .then([started(1)]);
});

test('start parsing: a parse cut short starts again as the next attempt', (t) => {
  spec(t)
    .given(uploaded, started(1))
    .when({ type: 'StartParsing', data: { document_id: 'doc_1' }, metadata: at(T1) })
    .then([started(2)]);
});

for (const status of ['indexing', 'ready', 'failed'] as const) {
  test(`start parsing: a redelivered upload of a document ${status} does nothing`, (t) => {
    spec(t)
      .given(...stages[status])
      .when({ type: 'StartParsing', data: { document_id: 'doc_1' }, metadata: at(T2) })
      .then([]);
  });
}

for (const [name, past] of [['an unknown', []], ['a deleted', [uploaded, deleted]]] as const) {
  test(`start parsing: ${name} document is not found`, (t) => {
    spec(t)
      .given(...past)
      .when({ type: 'StartParsing', data: { document_id: 'doc_1' }, metadata: at(T1) })
      .thenThrows('not_found', 'document_not_found');
  });
}

// RecordParse: the chunks are in the attempt's chunk stream already (chunk-stream.unit.test.ts)

const counts = { chunk_count: 2, batch_count: 1 };
const recordParse = (attempt = 1) => ({ type: 'RecordParse' as const, data: { document_id: 'doc_1', attempt, ...parse, ...counts }, metadata: at(T1) });

test('record parse: DocumentParsed names the attempt whose chunk stream holds the chunks, and its counts', (t) => {
  spec(t)
    .given(...parsing)
    .when(recordParse())
    .then([parsed]);
});

test('record parse: an earlier attempt that finishes after a later one started is the parse (its chunk stream is whole)', (t) => {
  spec(t)
    .given(uploaded, started(1), started(2))
    .when(recordParse(1))
    .then([parsed]);
  spec(t)
    .given(uploaded, started(1), started(2))
    .when(recordParse(2))
    .then([{ type: 'DocumentParsed', data: { ...parsed.data, attempt: 2 } } as DocumentEvent]);
});

test('record parse: an attempt that was never started is a conflict', (t) => {
  spec(t).given(...parsing).when(recordParse(2)).thenThrows('conflict', 'unknown_attempt');
  spec(t).given(...parsing).when(recordParse(0)).thenThrows('conflict', 'unknown_attempt');
});

test('record parse: a document without text is parsed with no batches', (t) => {
  spec(t)
    .given(...parsing)
    .when({ ...recordParse(), data: { ...recordParse().data, chunk_count: 0, batch_count: 0 } })
    .then([{ type: 'DocumentParsed', data: { ...ids, attempt: 1, ...parse, chunk_count: 0, batch_count: 0, parsed_at: T1 } }]);
});

for (const status of ['queued', 'indexing', 'ready', 'failed'] as const) {
  test(`record parse: a document ${status} is not parsing (a conflict)`, (t) => {
    spec(t)
      .given(...stages[status])
      .when(recordParse())
      .thenThrows('conflict', 'not_parsing');
  });
}

test('record parse: a document deleted while it was parsed is not found', (t) => {
  spec(t)
    .given(uploaded, started(), deleted)
    .when(recordParse())
    .thenThrows('not_found', 'document_not_found');
});

// A document's stream from before chunk streams (issue 13): chunk batches between its lifecycle events.

const recorded = (type: string, data: unknown, revision: number) =>
  trustedEvent({ id: `e${revision}`, type, streamId: 'document-doc_1', revision, position: BigInt(revision + 1), data, metadata: { schemaVersion: 1 }, recordedAt: T1 });

test('a stream of the old layout folds: its chunk batches are read past, its lifecycle counts', (t) => {
  const batch = (i: number) => recorded('DocumentChunksExtracted', { ...ids, attempt: 1, batch_index: i, batch_count: 2, chunks: [chunk(i)] }, 2 + i);
  const old = [recorded('DocumentUploaded', uploaded.data, 0), recorded('DocumentParsingStarted', started().data, 1), batch(0), batch(1), recorded('DocumentParsed', { ...parsed.data, batch_count: 2 }, 4)];
  const state = foldStream(documentDecider, 'document-doc_1', old);
  t.like(state, { status: 'indexing', attempt: 1, batchCount: 2, chunkCount: 2 });
  t.deepEqual(documentDecider.decide({ type: 'RecordIndexed', data: { document_id: 'doc_1', ...indexing }, metadata: at(T2) }, state), [indexed]);
  t.throws(() => foldStream(documentDecider, 'document-doc_1', [...old, recorded('ChatCompleted', {}, 5)]), { message: /holds a ChatCompleted/ });
});

// RecordIndexed

test('record indexed: an indexing document is ready, with the chunk count of its parse', (t) => {
  spec(t)
    .given(...indexingDoc)
    .when({ type: 'RecordIndexed', data: { document_id: 'doc_1', ...indexing }, metadata: at(T2) })
    .then([indexed]);
});

for (const status of ['queued', 'parsing', 'ready', 'failed'] as const) {
  test(`record indexed: a document ${status} stays as it is`, (t) => {
    spec(t)
      .given(...stages[status])
      .when({ type: 'RecordIndexed', data: { document_id: 'doc_1', ...indexing }, metadata: at(T2) })
      .then([]);
  });
}

test('record indexed: a deleted document is not found', (t) => {
  spec(t)
    .given(...indexingDoc, { type: 'DocumentDeleted', data: { ...ids, batch_count: 1, indexed_chunk_count: 0, sha256: SHA, deleted_at: T2 } })
    .when({ type: 'RecordIndexed', data: { document_id: 'doc_1', ...indexing }, metadata: at(T2) })
    .thenThrows('not_found', 'document_not_found');
});

// FailDocument

for (const status of ['queued', 'parsing', 'indexing'] as const) {
  test(`fail: a document ${status} fails with its stage, code, the catalogue's message and its detail`, (t) => {
    spec(t)
      .given(...stages[status])
      .when({ type: 'FailDocument', data: { document_id: 'doc_1', stage: 'indexing', code: 'model_unavailable', detail: 'gone' }, metadata: at(T2) })
      .then([{ type: 'DocumentFailed', data: { ...ids, stage: 'indexing', code: 'model_unavailable', message: DOCUMENT_FAILURES.model_unavailable, detail: 'gone', failed_at: T2 } }]);
  });
}

for (const status of ['ready', 'failed'] as const) {
  test(`fail: a document already ${status} stays as it is`, (t) => {
    spec(t)
      .given(...stages[status])
      .when({ type: 'FailDocument', data: { document_id: 'doc_1', stage: 'parsing', code: 'timeout', detail: 'slow' }, metadata: at(T2) })
      .then([]);
  });
}

for (const [name, past] of [['an unknown', []], ['a deleted', [uploaded, deleted]]] as const) {
  test(`fail: ${name} document is not found`, (t) => {
    spec(t)
      .given(...past)
      .when({ type: 'FailDocument', data: { document_id: 'doc_1', stage: 'parsing', code: 'timeout', detail: 'slow' }, metadata: at(T2) })
      .thenThrows('not_found', 'document_not_found');
  });
}

// DeleteDocument

const deleteCommand = (workspace_id = 'ws_a') => ({ type: 'DeleteDocument' as const, data: { document_id: 'doc_1', workspace_id }, metadata: at(T2) });
const deletedWith = (batch_count: number, indexed_chunk_count: number): DocumentEvent => ({
  type: 'DocumentDeleted',
  data: { ...ids, batch_count, indexed_chunk_count, sha256: SHA, name_key: 'name:manual.pdf', deleted_at: T2 },
});

test('delete: a ready document gives back its batches and the chunks its knowledge base counted', (t) => {
  spec(t).given(...ready).when(deleteCommand()).then([deletedWith(1, 2)]);
});

test('delete: a document not yet ready takes back its batches but no counted chunks', (t) => {
  spec(t).given(...indexingDoc).when(deleteCommand()).then([deletedWith(1, 0)]);
  spec(t).given(...queued).when(deleteCommand()).then([deletedWith(0, 0)]);
  spec(t).given(...indexingDoc, { ...failed, data: { ...failed.data, stage: 'indexing' } } as DocumentEvent).when(deleteCommand()).then([deletedWith(1, 0)]);
});

test("delete: another workspace's document is not found", (t) => {
  spec(t).given(...ready).when(deleteCommand('ws_b')).thenThrows('not_found', 'document_not_found');
});

for (const [name, past] of [['an unknown', []], ['a deleted', [uploaded, deleted]]] as const) {
  test(`delete: ${name} document is not found`, (t) => {
    spec(t)
      .given(...past)
      .when(deleteCommand())
      .thenThrows('not_found', 'document_not_found');
  });
}

test("a document's metadata is replaced by its workspace only, and changes nothing of its lifecycle", (t) => {
  const update = (workspace_id: string) => ({ type: 'UpdateDocumentMetadata' as const, data: { document_id: 'doc_1', workspace_id, metadata: { year: 2024 } }, metadata: at(T1) });
  spec(t)
    .given(uploaded)
    .when(update(uploaded.type === 'DocumentUploaded' ? uploaded.data.workspace_id : ''))
    .then([{ type: 'DocumentMetadataUpdated', data: { ...ids, metadata: { year: 2024 }, updated_at: T1 } }]);
  spec(t).given(uploaded).when(update('ws_other')).thenThrows('not_found', 'document_not_found');
  spec(t).given().when(update('ws_a')).thenThrows('not_found', 'document_not_found');
  const state = documentDecider.evolve(documentDecider.evolve(documentDecider.initialState(), uploaded), { type: 'DocumentMetadataUpdated', data: { ...ids, metadata: {}, updated_at: T1 } });
  t.is(state.status, 'queued');
});
