import test from 'ava';
import { documentDecider, type DocumentEvent } from '../../src/domain/document/document.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

// keep_versions (issue 44 item 5): which versions the document decider purges.

const spec = deciderSpec(documentDecider);
const T = '2026-01-01T00:00:00.000Z';
const ids = { document_id: 'doc_1', knowledge_base_id: 'kb_1' };
const chunking = { max_tokens: 512, overlap_tokens: 64 };
const parse = { media_type: 'text/markdown', page_count: 1, ocr_pages: [], warnings: [], parse_ms: 5, chunk_count: 3, batch_count: 1 };
const index = { entity_count: 1, embedding_model: 'kbqa-hash-embed-512', index_ms: 4 };
const sha = (n: number) => String(n).repeat(64);

const uploaded: DocumentEvent = {
  type: 'DocumentUploaded',
  data: { ...ids, workspace_id: 'ws_a', name: 'price.md', media_type: 'text/markdown', size_bytes: 10, sha256: sha(1), metadata: {}, chunking, uploaded_at: T },
};
const v = (n: number) => (n > 1 ? { version: n } : {});
const added = (n: number): DocumentEvent => ({
  type: 'DocumentVersionAdded',
  data: { ...ids, workspace_id: 'ws_a', version: n, name: 'price.md', media_type: 'text/markdown', size_bytes: 10, sha256: sha(n), blob: sha(n), chunking, uploaded_by: 'key_1', added_at: T },
});
const processed = (n: number): DocumentEvent[] => [
  { type: 'DocumentParsingStarted', data: { ...ids, ...v(n), attempt: n, started_at: T } },
  { type: 'DocumentParsed', data: { ...ids, ...v(n), attempt: n, ...parse, parsed_at: T } },
];
const ready = (n: number): DocumentEvent[] => [
  ...processed(n),
  { type: 'DocumentIndexed', data: { ...ids, ...v(n), chunk_count: 3, ...(n > 1 && { reused_chunk_count: 0 }), ...index, indexed_at: T } },
  ...(n > 1 ? [{ type: 'DocumentVersionSuperseded' as const, data: { ...ids, version: n - 1, superseded_by: n, superseded_at: T } }] : []),
];
const history = (current: number): DocumentEvent[] => [uploaded, ...ready(1), ...Array.from({ length: current - 1 }, (_, i) => [added(i + 2), ...ready(i + 2)]).flat()];
const purge = (keep: number) => ({ type: 'PurgeVersions' as const, data: { document_id: 'doc_1', keep }, metadata: at(T) });
const purged = (version: number): DocumentEvent => ({ type: 'DocumentVersionPurged', data: { ...ids, version, purged_at: T } });

test('keep 2 of 4: the two oldest are purged, oldest first; the current and the one before it stay', (t) => {
  spec(t).given(...history(4)).when(purge(2)).then([purged(1), purged(2)]);
});

test('keep 1: every version but the current one', (t) => {
  spec(t).given(...history(3)).when(purge(1)).then([purged(1), purged(2)]);
});

test('a version purged once is not purged again; fewer versions than kept purge nothing', (t) => {
  spec(t).given(...history(3), purged(1)).when(purge(1)).then([purged(2)]);
  spec(t).given(...history(2)).when(purge(2)).then([]);
});

test('a newer version in flight, or failed, is never purged: retention counts back from the current one', (t) => {
  const failed: DocumentEvent = { type: 'DocumentFailed', data: { ...ids, version: 3, stage: 'parsing', code: 'document_failed', message: 'The document could not be processed.', failed_at: T } };
  spec(t).given(...history(2), added(3), ...processed(3)).when(purge(1)).then([purged(1)]);
  spec(t).given(...history(2), added(3), failed).when(purge(1)).then([purged(1)]);
});

test('a document that is gone, or has no ready version, purges nothing', (t) => {
  spec(t).given(uploaded).when(purge(1)).then([]);
  spec(t).given().when(purge(1)).then([]);
});
