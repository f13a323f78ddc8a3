import test from 'ava';
import { allProjections } from '../../src/capabilities/index.ts';
import { projectionSpec } from '../helpers/projection-spec.ts';
import { DOCUMENT_FAILURES } from '../../src/domain/document/failures.ts';

const spec = projectionSpec(allProjections);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:01:00.000Z';
const T2 = '2026-01-01T00:02:00.000Z';
const T3 = '2026-01-01T00:03:00.000Z';
const SHA = (c: string) => c.repeat(64);
const chunking = { max_tokens: 512, overlap_tokens: 64 };

const on = (documentId: string, type: string, data: Record<string, unknown>) => ({
  type,
  streamId: `document-${documentId}`,
  data: { document_id: documentId, knowledge_base_id: 'kb_1', ...data },
});

const uploaded = (id: string, name: string, sha: string) =>
  on(id, 'DocumentUploaded', { workspace_id: 'ws_a', name, media_type: 'text/plain', size_bytes: 100, sha256: sha, metadata: { team: 'ops' }, chunking, uploaded_at: T0 });
const started = (id: string, attempt: number) => on(id, 'DocumentParsingStarted', { attempt, started_at: T1 });
const chunk = (id: string, index: number) => ({
  chunk_id: `${id}-c${index}`,
  index,
  page: 1,
  text: `Chunk ${index} of ${id}.`,
  heading_path: ['Intro'],
  char_start: 0,
  char_end: 14,
  token_count: 4,
});
/** A chunk batch ([index, count]) in its attempt's stream; `legacy`: in the document's own stream, as before issue 13. */
const extracted = (id: string, attempt: number, [batch, of]: [number, number], chunks: number[], legacy = false) => ({
  ...on(id, 'DocumentChunksExtracted', { attempt, batch_index: batch, batch_count: of, chunks: chunks.map((i) => chunk(id, i)) }),
  ...(!legacy && { streamId: `document_chunks-${id}-${attempt}` }),
});
const parsed = (id: string, attempt: number, chunkCount: number, batchCount: number) =>
  on(id, 'DocumentParsed', {
    attempt,
    media_type: 'application/pdf',
    page_count: 3,
    chunk_count: chunkCount,
    batch_count: batchCount,
    ocr_pages: [2],
    warnings: ['page 3 has no text'],
    parse_ms: 40,
    parsed_at: T2,
  });
const indexed = (id: string, chunkCount: number) =>
  on(id, 'DocumentIndexed', { chunk_count: chunkCount, entity_count: 2, embedding_model: 'kbqa-hash-embed-512', index_ms: 25, indexed_at: T3 });
const failed = (id: string) => on(id, 'DocumentFailed', { stage: 'parsing', code: 'corrupt', message: DOCUMENT_FAILURES.corrupt, detail: 'The xref table is damaged.', failed_at: T2 });
const deletedDoc = (id: string, sha: string, batchCount: number, indexedChunks: number) =>
  on(id, 'DocumentDeleted', { batch_count: batchCount, indexed_chunk_count: indexedChunks, sha256: sha, deleted_at: T3 });

/**
 * Four documents of one knowledge base, their streams interleaved as the log has them: d1 is
 * parsed on its second attempt (the first was cut short after its chunk stream was written) into
 * two batches and becomes ready; d2 fails; d3, parsed before chunk streams (its batch in its own
 * stream), becomes ready and is deleted; d4 is still queued.
 */
const life = [
  uploaded('d1', 'manual.pdf', SHA('1')),
  uploaded('d2', 'broken.pdf', SHA('2')),
  started('d1', 1),
  uploaded('d3', 'old.pdf', SHA('3')),
  started('d2', 1),
  extracted('d1', 1, [0, 1], [0, 1, 2]),
  started('d1', 2),
  started('d3', 1),
  extracted('d1', 2, [0, 2], [0, 1]),
  extracted('d1', 2, [1, 2], [2]),
  parsed('d1', 2, 3, 2),
  failed('d2'),
  extracted('d3', 1, [0, 1], [0], true),
  parsed('d3', 1, 1, 1),
  indexed('d1', 3),
  indexed('d3', 1),
  uploaded('d4', 'notes.txt', SHA('4')),
  deletedDoc('d3', SHA('3'), 1, 1),
];

const base = (id: string, name: string, sha: string) => ({
  id,
  object: 'document',
  workspace_id: 'ws_a',
  knowledge_base_id: 'kb_1',
  name,
  media_type: 'text/plain',
  size_bytes: 100,
  sha256: sha,
  metadata: { team: 'ops' },
  chunking,
  page_count: null,
  chunk_count: null,
  ocr_pages: [],
  warnings: [],
  error: null,
  timings: { parse_ms: null, index_ms: null, parsing_started_at: null, parsed_at: null, indexed_at: null },
  version: 1,
  current_version: 0,
  versions: [history(name, sha, {})],
  created_at: T0,
  updated_at: T0,
});

/** Its first version as the history keeps it (issue 44). */
function history(name: string, sha: string, over: Record<string, unknown>) {
  return {
    version: 1,
    name,
    media_type: 'text/plain',
    size_bytes: 100,
    sha256: sha,
    uploaded_by: null,
    status: 'queued',
    page_count: null,
    chunk_count: null,
    reused_chunk_count: null,
    index_ms: null,
    created_at: T0,
    current_from: null,
    superseded_at: null,
    ...over,
  };
}

test('documents: each document follows its lifecycle; a deleted one leaves a tombstone; replayed twice, nothing changes', async (t) => {
  await spec(t)
    .given(...life)
    .then(
      'documents',
      {
        d1: {
          ...base('d1', 'manual.pdf', SHA('1')),
          status: 'ready',
          media_type: 'application/pdf',
          page_count: 3,
          page_estimated: false, // a parse from before issue 15 (no page_estimated in its event): pages known
          chunk_count: 3,
          ocr_pages: [2],
          warnings: ['page 3 has no text'],
          timings: { parse_ms: 40, index_ms: 25, parsing_started_at: T1, parsed_at: T2, indexed_at: T3 },
          current_version: 1,
          versions: [history('manual.pdf', SHA('1'), { status: 'ready', media_type: 'application/pdf', page_count: 3, chunk_count: 3, reused_chunk_count: 0, index_ms: 25, current_from: T3 })],
          updated_at: T3,
        },
        d2: {
          ...base('d2', 'broken.pdf', SHA('2')),
          status: 'failed',
          error: { stage: 'parsing', code: 'corrupt', message: DOCUMENT_FAILURES.corrupt, detail: 'The xref table is damaged.' },
          timings: { parse_ms: null, index_ms: null, parsing_started_at: T1, parsed_at: null, indexed_at: null },
          versions: [history('broken.pdf', SHA('2'), { status: 'failed' })],
          updated_at: T2,
        },
        d4: { ...base('d4', 'notes.txt', SHA('4')), status: 'queued' },
      },
      { tombstones: ['d3'] },
    );
});

test('documents: an event for a document the read model never saw creates nothing', async (t) => {
  await spec(t).given(started('dx', 1), failed('dx')).then('documents', {});
});

test('knowledge-base totals of that life: three live documents, the chunks of the ready one', async (t) => {
  await spec(t).given(...life).then('knowledge_base_totals', { '0': { document_count: 3, chunk_count: 3 } });
});

test('no read model holds chunk batches (the chunk list reads passages): the documents above saw them in both layouts and ignored them', (t) => {
  t.false(allProjections.some((p) => p.eventTypes.includes('DocumentChunksExtracted')));
  t.false(allProjections.some((p) => p.collection === 'chunk_batches'));
});

test('documents: a parse whose pages were estimated says so', async (t) => {
  const estimated = { ...parsed('d5', 1, 1, 1), data: { ...parsed('d5', 1, 1, 1).data, media_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', page_count: 7, page_estimated: true } };
  await spec(t)
    .given(uploaded('d5', 'unlaid.docx', SHA('5')), started('d5', 1), extracted('d5', 1, [0, 1], [0]), estimated)
    .then('documents', {
      d5: {
        ...base('d5', 'unlaid.docx', SHA('5')),
        status: 'indexing',
        media_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        page_count: 7,
        page_estimated: true,
        chunk_count: 1,
        ocr_pages: [2],
        warnings: ['page 3 has no text'],
        timings: { parse_ms: 40, index_ms: null, parsing_started_at: T1, parsed_at: T2, indexed_at: null },
        versions: [history('unlaid.docx', SHA('5'), { status: 'indexing', media_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', page_count: 7, chunk_count: 1 })],
        updated_at: T2,
      },
    });
});
