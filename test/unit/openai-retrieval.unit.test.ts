import test from 'ava';
import { allProjections } from '../../src/capabilities/index.ts';
import { fileDecider, type FileEvent } from '../../src/domain/file/file.ts';
import { knowledgeBaseDecider, type KnowledgeBaseEvent } from '../../src/domain/knowledge-base/knowledge-base.ts';
import { rewriteQuery } from '../../src/domain/retrieval/query-rewrite.ts';
import { chunkingOf, countFiles } from '../../src/app/services/vector-stores.ts';
import { defaultSettings } from '../../schemas/knowledge-base-settings.ts';
import { createTextAnalyzer } from '../../src/adapters/text/analyzer.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';
import { projectionSpec } from '../helpers/projection-spec.ts';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const file = { file_id: 'file_1', workspace_id: 'ws_a', filename: 'a.md', purpose: 'assistants', bytes: 12, sha256: 'ab'.repeat(32), media_type: 'text/markdown', uploaded_by: 'key_1' };
const uploaded: FileEvent = { type: 'FileUploaded', data: { ...file, created_at: T0 } };

test('a file is stored once and deleted once, only by its workspace', (t) => {
  const spec = deciderSpec(fileDecider);
  spec(t).given().when({ type: 'UploadFile', data: file, metadata: at(T0) }).then([uploaded]);
  spec(t).given(uploaded).when({ type: 'UploadFile', data: file, metadata: at(T1) }).thenThrows('conflict', 'file_exists');
  spec(t).given(uploaded).when({ type: 'DeleteFile', data: { file_id: 'file_1', workspace_id: 'ws_a' }, metadata: at(T1) }).then([{ type: 'FileDeleted', data: { file_id: 'file_1', deleted_at: T1 } }]);
  spec(t).given(uploaded).when({ type: 'DeleteFile', data: { file_id: 'file_1', workspace_id: 'ws_b' }, metadata: at(T1) }).thenThrows('not_found', 'file_not_found');
  spec(t).given(uploaded, { type: 'FileDeleted', data: { file_id: 'file_1', deleted_at: T1 } }).when({ type: 'DeleteFile', data: { file_id: 'file_1', workspace_id: 'ws_a' }, metadata: at(T1) }).thenThrows('not_found', 'file_not_found');
});

test('the files read model holds stored files and forgets deleted ones', async (t) => {
  const spec = projectionSpec(allProjections);
  const { file_id: _id, ...withoutFileId } = file;
  await spec(t).given(uploaded).then('files', { file_1: { ...withoutFileId, id: 'file_1', object: 'file', created_at: T0 } });
  await spec(t).given(uploaded, { type: 'FileDeleted', data: { file_id: 'file_1', deleted_at: T1 } }).then('files', {}, { tombstones: ['file_1'] });
});

test("a vector store's metadata and expiry ride on its knowledge base and survive an update that does not name them", (t) => {
  const spec = deciderSpec(knowledgeBaseDecider);
  const target = { knowledge_base_id: 'kb_1', workspace_id: 'ws_a' };
  const vectorStore = { metadata: { team: 'geo' }, expires_after: { anchor: 'last_active_at' as const, days: 7 } };
  const created: KnowledgeBaseEvent = { type: 'KnowledgeBaseCreated', data: { ...target, name: 'vs', description: null, settings: defaultSettings('m'), vector_store: vectorStore, created_at: T0 } };
  spec(t)
    .given()
    .when({ type: 'CreateKnowledgeBase', data: { ...target, name: 'vs', description: null, settings: {}, default_embedding_model: 'm', vector_store: vectorStore }, metadata: at(T0) })
    .then([created]);
  spec(t)
    .given(created)
    .when({ type: 'UpdateKnowledgeBase', data: { ...target, name: 'renamed' }, metadata: at(T1) })
    .then([{ type: 'KnowledgeBaseUpdated', data: { knowledge_base_id: 'kb_1', name: 'renamed', description: null, settings: defaultSettings('m'), vector_store: vectorStore, updated_at: T1 } }]);
});

test('rewrite_query keeps the words a question is about, as written', (t) => {
  const analyzer = createTextAnalyzer();
  const rewrite = (q: string) => rewriteQuery(q, analyzer.tokens(q, 'en'));
  t.is(rewrite('What is the southernmost active volcano?'), 'southernmost active volcano');
  t.is(rewrite('Wie lang ist ein Zephyr-Blatt?').includes('Zephyr'), true);
  t.is(rewrite('what is it?'), 'what is it?', 'a query of stop words only stays as it was');
});

test("a document's status counts as OpenAI's file status; static chunking maps to ours", (t) => {
  const doc = (status: string) => ({ status }) as never;
  t.deepEqual(countFiles([doc('queued'), doc('parsing'), doc('indexing'), doc('ready'), doc('failed')]), { in_progress: 3, completed: 1, failed: 1, cancelled: 0, total: 5 });
  t.deepEqual(chunkingOf({ type: 'static', static: { max_chunk_size_tokens: 800, chunk_overlap_tokens: 400 } }), { max_tokens: 800, overlap_tokens: 400 });
  t.deepEqual(chunkingOf({ type: 'auto' }), {});
  t.deepEqual(chunkingOf(undefined), {});
});
