import test from 'ava';
import { knowledgeBaseDecider, type KnowledgeBaseEvent } from '../../src/domain/knowledge-base/knowledge-base.ts';
import { defaultSettings } from '../../schemas/knowledge-base-settings.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(knowledgeBaseDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const target = { knowledge_base_id: 'kb_1', workspace_id: 'ws_a' };
const created: KnowledgeBaseEvent = {
  type: 'KnowledgeBaseCreated',
  data: { ...target, name: 'Manuals', description: null, settings: defaultSettings('embed-a'), created_at: T0 },
};

test('create fills every setting not given with its default', (t) => {
  spec(t)
    .given()
    .when({
      type: 'CreateKnowledgeBase',
      data: { ...target, name: 'Manuals', description: null, settings: { top_k: 8, recall: { graph: true } }, default_embedding_model: 'embed-a' },
      metadata: at(T0),
    })
    .then([
      {
        type: 'KnowledgeBaseCreated',
        data: {
          ...target,
          name: 'Manuals',
          description: null,
          settings: { ...defaultSettings('embed-a'), top_k: 8, recall: { vector: true, keyword: true, graph: true } },
          created_at: T0,
        },
      },
    ]);
});

test('defaults are those of API.md', (t) => {
  t.deepEqual(defaultSettings('m'), {
    embedding_model: 'm',
    top_k: 5,
    score_threshold: 0,
    recall: { vector: true, keyword: true, graph: false },
    rerank: { enabled: true, model: null },
    answerability: { min_coverage: 0.4 },
    chunking: { max_tokens: 512, overlap_tokens: 64 },
    language: 'auto',
    ocr: { languages: null },
  });
});

test('creating twice is a conflict', (t) => {
  spec(t)
    .given(created)
    .when({ type: 'CreateKnowledgeBase', data: { ...target, name: 'x', description: null, settings: {}, default_embedding_model: 'e' }, metadata: at(T1) })
    .thenThrows('conflict', 'knowledge_base_exists');
});

test('update deep-merges settings and keeps what it does not mention', (t) => {
  spec(t)
    .given(created)
    .when({ type: 'UpdateKnowledgeBase', data: { ...target, settings: { chunking: { max_tokens: 256 }, rerank: { enabled: true } } }, metadata: at(T1) })
    .then([
      {
        type: 'KnowledgeBaseUpdated',
        data: {
          knowledge_base_id: 'kb_1',
          name: 'Manuals',
          description: null,
          settings: { ...defaultSettings('embed-a'), chunking: { max_tokens: 256, overlap_tokens: 64 }, rerank: { enabled: true, model: null } },
          updated_at: T1,
        },
      },
    ]);
});

test('an update that leaves no recall enabled is refused, naming settings.recall', (t) => {
  spec(t)
    .given(created)
    .when({ type: 'UpdateKnowledgeBase', data: { ...target, settings: { recall: { vector: false, keyword: false } } }, metadata: at(T1) })
    .thenThrows('invalid', 'invalid_settings', 'settings.recall');
});

test('overlap must stay below the chunk size after the merge', (t) => {
  spec(t)
    .given(created)
    .when({ type: 'UpdateKnowledgeBase', data: { ...target, settings: { chunking: { max_tokens: 64 } } }, metadata: at(T1) })
    .thenThrows('invalid', 'invalid_settings', 'settings.chunking.overlap_tokens');
});

test('a language must be auto or one the analyzer supports', (t) => {
  spec(t)
    .given(created)
    .when({ type: 'UpdateKnowledgeBase', data: { ...target, settings: { language: 'klingon' } }, metadata: at(T1) })
    .thenThrows('invalid', 'invalid_settings', 'settings.language');
});

test('another workspace cannot update, and is told the knowledge base does not exist', (t) => {
  spec(t)
    .given(created)
    .when({ type: 'UpdateKnowledgeBase', data: { ...target, workspace_id: 'ws_b', name: 'mine now' }, metadata: at(T1) })
    .thenThrows('not_found', 'knowledge_base_not_found');
});

test('delete, then every command but create finds nothing', (t) => {
  const deleted: KnowledgeBaseEvent = { type: 'KnowledgeBaseDeleted', data: { knowledge_base_id: 'kb_1', deleted_at: T1 } };
  spec(t).given(created).when({ type: 'DeleteKnowledgeBase', data: target, metadata: at(T1) }).then([deleted]);
  spec(t).given(created, deleted).when({ type: 'DeleteKnowledgeBase', data: target, metadata: at(T1) }).thenThrows('not_found', 'knowledge_base_not_found');
  spec(t).given(created, deleted).when({ type: 'UpdateKnowledgeBase', data: { ...target, name: 'n' }, metadata: at(T1) }).thenThrows('not_found', 'knowledge_base_not_found');
});

test('update of a knowledge base that never existed is not found', (t) => {
  spec(t).given().when({ type: 'UpdateKnowledgeBase', data: { ...target, name: 'n' }, metadata: at(T1) }).thenThrows('not_found', 'knowledge_base_not_found');
});

const requested: KnowledgeBaseEvent = { type: 'KnowledgeBaseReindexRequested', data: { knowledge_base_id: 'kb_1', reindex_id: 'reindex_1', embedding_model: 'embed-a', requested_at: T1 } };
const finish = { type: 'FinishReindex' as const, data: { knowledge_base_id: 'kb_1', reindex_id: 'reindex_1', documents: 2, chunks: 9, started_at: T1 }, metadata: at(T1) };

test('a re-index names the current embedding model; a second one while it runs is a conflict, an update does not end it', (t) => {
  spec(t).given(created).when({ type: 'RequestReindex', data: { ...target, reindex_id: 'reindex_1' }, metadata: at(T1) }).then([requested]);
  const updated: KnowledgeBaseEvent = { type: 'KnowledgeBaseUpdated', data: { knowledge_base_id: 'kb_1', name: 'Renamed', description: null, settings: defaultSettings('embed-a'), updated_at: T1 } };
  spec(t).given(created, requested, updated).when({ type: 'RequestReindex', data: { ...target, reindex_id: 'reindex_2' }, metadata: at(T1) }).thenThrows('conflict', 'reindex_in_progress');
  spec(t).given(created, requested).when({ type: 'RequestReindex', data: { ...target, workspace_id: 'ws_b', reindex_id: 'reindex_2' }, metadata: at(T1) }).thenThrows('not_found', 'knowledge_base_not_found');
});

test('a re-index ends once: heard again, or another one’s end, or after the knowledge base went, nothing is written', (t) => {
  const reindexed: KnowledgeBaseEvent = { type: 'KnowledgeBaseReindexed', data: { ...finish.data, finished_at: T1 } };
  spec(t).given(created, requested).when(finish).then([reindexed]);
  spec(t).given(created, requested, reindexed).when(finish).then([]);
  spec(t).given(created, requested).when({ ...finish, data: { ...finish.data, reindex_id: 'reindex_0' } }).then([]);
  spec(t).given(created, requested, { type: 'KnowledgeBaseDeleted', data: { knowledge_base_id: 'kb_1', deleted_at: T1 } }).when(finish).then([]);
  const fail = { type: 'FailReindex' as const, data: { knowledge_base_id: 'kb_1', reindex_id: 'reindex_1', code: 'model_not_found', message: 'gone' }, metadata: at(T1) };
  spec(t).given(created, requested).when(fail).then([{ type: 'KnowledgeBaseReindexFailed', data: { ...fail.data, failed_at: T1 } }]);
  spec(t).given(created, requested, reindexed).when({ type: 'RequestReindex', data: { ...target, reindex_id: 'reindex_2' }, metadata: at(T1) }).then([{ ...requested, data: { ...requested.data, reindex_id: 'reindex_2' } }]);
});
