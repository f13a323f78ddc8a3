import test from 'ava';
import type { Chunk } from '../../src/domain/document/chunker.ts';
import { MAX_BATCH_BYTES } from '../../src/domain/document/batches.ts';
import { documentDecider, type DocumentEvent } from '../../src/domain/document/document.ts';
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

const chunk = (index: number, text = `Chunk ${index}.`): Chunk => ({
  chunk_id: `c${index}`,
  index,
  page: 1,
  text,
  heading_path: [],
  char_start: 0,
  char_end: text.length,
  token_count: 3,
});

const parse = { media_type: 'application/pdf', page_count: 2, ocr_pages: [2], warnings: ['w'], parse_ms: 40 };
const indexing = { entity_count: 4, embedding_model: 'kbqa-hash-embed-512', index_ms: 30 };

// The life so far, as events.
const uploaded: DocumentEvent = { type: 'DocumentUploaded', data: { ...upload, uploaded_at: T0 } };
const started = (attempt = 1): DocumentEvent => ({ type: 'DocumentParsingStarted', data: { ...ids, attempt, started_at: T1 } });
const extracted: DocumentEvent = { type: 'DocumentChunksExtracted', data: { ...ids, attempt: 1, batch_index: 0, batch_count: 1, chunks: [chunk(0), chunk(1)] } };
const parsed: DocumentEvent = { type: 'DocumentParsed', data: { ...ids, attempt: 1, ...parse, chunk_count: 2, batch_count: 1, parsed_at: T1 } };
const indexed: DocumentEvent = { type: 'DocumentIndexed', data: { ...ids, chunk_count: 2, ...indexing, indexed_at: T2 } };
const failed: DocumentEvent = { type: 'DocumentFailed', data: { ...ids, stage: 'parsing', code: 'corrupt', message: 'damaged', failed_at: T1 } };
const deleted: DocumentEvent = { type: 'DocumentDeleted', data: { ...ids, batch_count: 0, indexed_chunk_count: 0, sha256: SHA, deleted_at: T1 } };

const queued = [uploaded];
const parsing = [uploaded, started()];
const indexingDoc = [uploaded, started(), extracted, parsed];
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

// RecordParse

test('record parse: the chunks travel in a batch, then DocumentParsed closes the attempt', (t) => {
  spec(t)
    .given(...parsing)
    .when({ type: 'RecordParse', data: { document_id: 'doc_1', ...parse, chunks: [chunk(0), chunk(1)] }, metadata: at(T1) })
    .then([extracted, parsed]);
});

test('record parse: chunks over the batch budget are split into consecutive batches of the same attempt', (t) => {
  const big = (i: number) => chunk(i, 'x'.repeat(Math.floor(MAX_BATCH_BYTES / 2.5)));
  const chunks = [big(0), big(1), big(2)];
  spec(t)
    .given(uploaded, started(1), started(2))
    .when({ type: 'RecordParse', data: { document_id: 'doc_1', ...parse, chunks }, metadata: at(T1) })
    .then([
      { type: 'DocumentChunksExtracted', data: { ...ids, attempt: 2, batch_index: 0, batch_count: 2, chunks: [big(0), big(1)] } },
      { type: 'DocumentChunksExtracted', data: { ...ids, attempt: 2, batch_index: 1, batch_count: 2, chunks: [big(2)] } },
      { type: 'DocumentParsed', data: { ...ids, attempt: 2, ...parse, chunk_count: 3, batch_count: 2, parsed_at: T1 } },
    ]);
});

test('record parse: a document without text is parsed with no batches', (t) => {
  spec(t)
    .given(...parsing)
    .when({ type: 'RecordParse', data: { document_id: 'doc_1', ...parse, chunks: [] }, metadata: at(T1) })
    .then([{ type: 'DocumentParsed', data: { ...ids, attempt: 1, ...parse, chunk_count: 0, batch_count: 0, parsed_at: T1 } }]);
});

for (const status of ['queued', 'indexing', 'ready', 'failed'] as const) {
  test(`record parse: a document ${status} is not parsing (a conflict)`, (t) => {
    spec(t)
      .given(...stages[status])
      .when({ type: 'RecordParse', data: { document_id: 'doc_1', ...parse, chunks: [chunk(0)] }, metadata: at(T2) })
      .thenThrows('conflict', 'not_parsing');
  });
}

test('record parse: a document deleted while it was parsed is not found', (t) => {
  spec(t)
    .given(uploaded, started(), deleted)
    .when({ type: 'RecordParse', data: { document_id: 'doc_1', ...parse, chunks: [chunk(0)] }, metadata: at(T2) })
    .thenThrows('not_found', 'document_not_found');
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
  test(`fail: a document ${status} fails with its stage, code and message`, (t) => {
    spec(t)
      .given(...stages[status])
      .when({ type: 'FailDocument', data: { document_id: 'doc_1', stage: 'indexing', code: 'model_unavailable', message: 'gone' }, metadata: at(T2) })
      .then([{ type: 'DocumentFailed', data: { ...ids, stage: 'indexing', code: 'model_unavailable', message: 'gone', failed_at: T2 } }]);
  });
}

for (const status of ['ready', 'failed'] as const) {
  test(`fail: a document already ${status} stays as it is`, (t) => {
    spec(t)
      .given(...stages[status])
      .when({ type: 'FailDocument', data: { document_id: 'doc_1', stage: 'parsing', code: 'timeout', message: 'slow' }, metadata: at(T2) })
      .then([]);
  });
}

for (const [name, past] of [['an unknown', []], ['a deleted', [uploaded, deleted]]] as const) {
  test(`fail: ${name} document is not found`, (t) => {
    spec(t)
      .given(...past)
      .when({ type: 'FailDocument', data: { document_id: 'doc_1', stage: 'parsing', code: 'timeout', message: 'slow' }, metadata: at(T2) })
      .thenThrows('not_found', 'document_not_found');
  });
}

// DeleteDocument

const deleteCommand = (workspace_id = 'ws_a') => ({ type: 'DeleteDocument' as const, data: { document_id: 'doc_1', workspace_id }, metadata: at(T2) });
const deletedWith = (batch_count: number, indexed_chunk_count: number): DocumentEvent => ({
  type: 'DocumentDeleted',
  data: { ...ids, batch_count, indexed_chunk_count, sha256: SHA, deleted_at: T2 },
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
