import test from 'ava';
import { documentDecider, type DocumentEvent } from '../../src/domain/document/document.ts';
import { nameClaimDecider } from '../../src/domain/document/name-claim.ts';
import { withContentIds } from '../../src/domain/document/chunk-identity.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

// Issue 44: a document's versions, decided.

const spec = deciderSpec(documentDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:01:00.000Z';
const T2 = '2026-01-01T00:02:00.000Z';
const SHA1 = '1'.repeat(64);
const SHA2 = '2'.repeat(64);
const ids = { document_id: 'doc_1', knowledge_base_id: 'kb_1' };
const chunking = { max_tokens: 512, overlap_tokens: 64 };

const uploaded: DocumentEvent = {
  type: 'DocumentUploaded',
  data: { ...ids, workspace_id: 'ws_a', name: 'price.md', media_type: 'text/markdown', size_bytes: 10, sha256: SHA1, metadata: {}, chunking, uploaded_at: T0 },
};
const parse = { media_type: 'text/markdown', page_count: 1, ocr_pages: [], warnings: [], parse_ms: 5, chunk_count: 3, batch_count: 1 };
const index = { entity_count: 1, embedding_model: 'kbqa-hash-embed-512', index_ms: 4 };
const v1Ready: DocumentEvent[] = [
  uploaded,
  { type: 'DocumentParsingStarted', data: { ...ids, attempt: 1, started_at: T0 } },
  { type: 'DocumentParsed', data: { ...ids, attempt: 1, ...parse, parsed_at: T0 } },
  { type: 'DocumentIndexed', data: { ...ids, chunk_count: 3, ...index, indexed_at: T0 } },
];
const addV2 = {
  type: 'AddVersion' as const,
  data: { document_id: 'doc_1', workspace_id: 'ws_a', name: 'price.md', media_type: 'text/markdown', size_bytes: 12, sha256: SHA2, blob: SHA2, uploaded_by: 'key_1', chunking },
  metadata: at(T1),
};
const v2Added: DocumentEvent = { type: 'DocumentVersionAdded', data: { ...addV2.data, knowledge_base_id: 'kb_1', version: 2, added_at: T1 } };
const v2Started: DocumentEvent = { type: 'DocumentParsingStarted', data: { ...ids, version: 2, attempt: 2, started_at: T1 } };
const v2Parsed: DocumentEvent = { type: 'DocumentParsed', data: { ...ids, version: 2, attempt: 2, ...parse, parsed_at: T1 } };

test('new content for a ready document is its version 2, queued; the first version keeps answering', (t) => {
  spec(t).given(...v1Ready).when(addV2).then([v2Added]);
  const state = [...v1Ready, v2Added].reduce(documentDecider.evolve, documentDecider.initialState());
  t.like(state, { status: 'queued', version: 2, currentVersion: 1 });
});

test('the bytes of the newest version again are nothing new', (t) => {
  spec(t).given(...v1Ready).when({ ...addV2, data: { ...addV2.data, sha256: SHA1, blob: SHA1 } }).then([]);
  spec(t).given(...v1Ready, v2Added).when(addV2).then([]);
});

test('another workspace adds no version to a document; an unknown one is not found', (t) => {
  spec(t).given(...v1Ready).when({ ...addV2, data: { ...addV2.data, workspace_id: 'ws_b' } }).thenThrows('not_found', 'document_not_found');
  spec(t).given().when(addV2).thenThrows('not_found', 'document_not_found');
});

test('version 2 is parsed as the next attempt, its events carrying the version', (t) => {
  spec(t).given(...v1Ready, v2Added).when({ type: 'StartParsing', data: { document_id: 'doc_1', version: 2 }, metadata: at(T1) }).then([v2Started]);
  // The first upload, redelivered, starts nothing: its version was overtaken.
  spec(t).given(...v1Ready, v2Added).when({ type: 'StartParsing', data: { document_id: 'doc_1' }, metadata: at(T1) }).then([]);
  spec(t)
    .given(...v1Ready, v2Added, v2Started)
    .when({ type: 'RecordParse', data: { document_id: 'doc_1', version: 2, attempt: 2, ...parse }, metadata: at(T1) })
    .then([v2Parsed]);
});

test('indexing version 2 makes it current and records that it superseded version 1, in one append', (t) => {
  spec(t)
    .given(...v1Ready, v2Added, v2Started, v2Parsed)
    .when({ type: 'RecordIndexed', data: { document_id: 'doc_1', version: 2, reused_chunk_count: 2, ...index }, metadata: at(T2) })
    .then([
      { type: 'DocumentIndexed', data: { ...ids, version: 2, chunk_count: 3, reused_chunk_count: 2, ...index, indexed_at: T2 } },
      { type: 'DocumentVersionSuperseded', data: { ...ids, version: 1, superseded_by: 2, superseded_at: T2 } },
    ]);
});

test('a failed version 2 leaves version 1 current; an older version’s failure or indexing is not the document’s', (t) => {
  const failed: DocumentEvent = { type: 'DocumentFailed', data: { ...ids, version: 2, stage: 'parsing', code: 'corrupt', message: 'x', failed_at: T2 } };
  const after = [...v1Ready, v2Added, v2Started, failed].reduce(documentDecider.evolve, documentDecider.initialState());
  t.like(after, { status: 'failed', version: 2, currentVersion: 1 });
  spec(t).given(...v1Ready, v2Added, v2Started).when({ type: 'FailDocument', data: { document_id: 'doc_1', version: 1, stage: 'indexing', code: 'internal_error' }, metadata: at(T2) }).then([]);
  spec(t).given(...v1Ready, v2Added, v2Started, v2Parsed).when({ type: 'RecordIndexed', data: { document_id: 'doc_1', ...index }, metadata: at(T2) }).then([]);
  // A third version after the failed one is parsed, and supersedes version 1 (the one answering).
  spec(t).given(...v1Ready, v2Added, v2Started, failed).when({ ...addV2, data: { ...addV2.data, sha256: SHA1.replaceAll('1', '3'), blob: 'b' } }).then([
    { type: 'DocumentVersionAdded', data: { ...addV2.data, sha256: SHA1.replaceAll('1', '3'), blob: 'b', knowledge_base_id: 'kb_1', version: 3, added_at: T1 } },
  ]);
});

test('deleting a document with versions releases every version’s bytes and its name', (t) => {
  spec(t)
    .given(...v1Ready, v2Added)
    .when({ type: 'DeleteDocument', data: { document_id: 'doc_1', workspace_id: 'ws_a' }, metadata: at(T2) })
    .then([
      {
        type: 'DocumentDeleted',
        data: { ...ids, batch_count: 0, indexed_chunk_count: 3, sha256: SHA2, version_sha256s: [SHA1, SHA2], name_key: 'name:price.md', deleted_at: T2 },
      },
    ]);
});

test('a name is claimed once: the second upload under it learns the holder', (t) => {
  const claim = (document_id: string) => ({ type: 'ClaimName' as const, data: { knowledge_base_id: 'kb_1', key: 'name:price.md', document_id }, metadata: at(T0) });
  const claimed = nameClaimDecider.decide(claim('doc_1'), nameClaimDecider.initialState());
  t.deepEqual(claimed, [{ type: 'DocumentNameClaimed', data: claim('doc_1').data }]);
  const state = claimed.reduce(nameClaimDecider.evolve, nameClaimDecider.initialState());
  t.deepEqual(nameClaimDecider.decide(claim('doc_2'), state), []);
  t.is(state.holder, 'doc_1');
  t.deepEqual(nameClaimDecider.decide({ type: 'ReleaseName', data: claim('doc_2').data, metadata: at(T0) }, state), [], 'only the holder releases');
});

test('chunk ids are the content: a chunk keeps its id when others around it change, and repeats are told apart by their ordinal', (t) => {
  const c = (text: string, index: number) => ({ chunk_id: `old_${index}`, index, text, heading_path: ['Prices'] });
  const v1 = withContentIds('doc_1', [c('Tea costs 2 euros.', 0), c('Coffee costs 3 euros.', 1), c('Same.', 2), c('Same.', 3)]);
  const v2 = withContentIds('doc_1', [c('Water is free.', 0), c('Tea costs 2  euros.', 1), c('Coffee costs 4 euros.', 2), c('Same.', 3), c('Same.', 4)]);
  t.is(v2[1]!.chunk_id, v1[0]!.chunk_id, 'moved and re-flowed, the same chunk');
  t.not(v2[2]!.chunk_id, v1[1]!.chunk_id, 'changed text, a new chunk');
  t.deepEqual([v2[3]!.chunk_id, v2[4]!.chunk_id], [v1[2]!.chunk_id, v1[3]!.chunk_id]);
  t.not(v1[2]!.chunk_id, v1[3]!.chunk_id);
  t.not(withContentIds('doc_2', [c('Tea costs 2 euros.', 0)])[0]!.chunk_id, v1[0]!.chunk_id, 'another document’s chunk is its own');
});
