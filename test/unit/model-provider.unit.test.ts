import test from 'ava';
import { agentUses, knowledgeBaseUses, strandedBy, usersOf } from '../../src/domain/model-provider/in-use.ts';
import { modelProviderDecider, type ModelProviderEvent, providerModelRef } from '../../src/domain/model-provider/model-provider.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(modelProviderDecider);
const NOW = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-02T00:00:00.000Z';
const provider = {
  provider_id: 'mp_1',
  workspace_id: 'ws_a',
  name: 'acme',
  base_url: 'https://api.example.com/v1',
  secret_ref: 'sec_1',
  api_key_hint: '…abcd',
  models: [{ id: 'gpt', type: 'chat' as const }],
};
const created: ModelProviderEvent = { type: 'ModelProviderCreated', data: { ...provider, created_at: NOW } };

test('a provider is created once, with its key as a ref only', (t) => {
  spec(t).given().when({ type: 'CreateModelProvider', data: provider, metadata: at(NOW) }).then([created]);
  spec(t).given(created).when({ type: 'CreateModelProvider', data: provider, metadata: at(NOW) }).thenThrows('conflict', 'model_provider_exists');
});

test('a model list names each model once, and only embeddings have dimensions', (t) => {
  const twice = { ...provider, models: [{ id: 'gpt', type: 'chat' as const }, { id: 'gpt', type: 'chat' as const }] };
  spec(t).given().when({ type: 'CreateModelProvider', data: twice, metadata: at(NOW) }).thenThrows('invalid', 'duplicate_model', 'models');
  const dims = { ...provider, models: [{ id: 'gpt', type: 'chat' as const, dimensions: 3 }] };
  spec(t).given().when({ type: 'CreateModelProvider', data: dims, metadata: at(NOW) }).thenThrows('invalid', 'invalid_model', 'models');
});

test('an update carries the whole provider as it becomes; a new key is a new ref', (t) => {
  spec(t)
    .given(created)
    .when({ type: 'UpdateModelProvider', data: { provider_id: 'mp_1', workspace_id: 'ws_a', changes: { secret_ref: 'sec_2', api_key_hint: '…wxyz' } }, metadata: at(LATER) })
    .then([{ type: 'ModelProviderUpdated', data: { ...provider, secret_ref: 'sec_2', api_key_hint: '…wxyz', updated_at: LATER } }]);
});

test('update and delete find no provider that is absent, deleted or another workspace’s; a deletion names the ref to destroy', (t) => {
  const deleted: ModelProviderEvent = { type: 'ModelProviderDeleted', data: { provider_id: 'mp_1', workspace_id: 'ws_a', name: 'acme', secret_ref: 'sec_1', deleted_at: LATER } };
  spec(t).given(created).when({ type: 'DeleteModelProvider', data: { provider_id: 'mp_1', workspace_id: 'ws_a' }, metadata: at(LATER) }).then([deleted]);
  for (const past of [[], [created, deleted]] as ModelProviderEvent[][]) {
    spec(t).given(...past).when({ type: 'DeleteModelProvider', data: { provider_id: 'mp_1', workspace_id: 'ws_a' }, metadata: at(LATER) }).thenThrows('not_found', 'model_provider_not_found');
  }
  spec(t).given(created).when({ type: 'UpdateModelProvider', data: { provider_id: 'mp_1', workspace_id: 'ws_b', changes: {} }, metadata: at(LATER) }).thenThrows('not_found', 'model_provider_not_found');
});

test('{provider}/{model} splits at the first slash; the knowledge bases using a provider are found by either model', (t) => {
  t.deepEqual(providerModelRef('acme/llama3.1:8b'), { provider: 'acme', model: 'llama3.1:8b' });
  t.deepEqual(providerModelRef('acme/org/model'), { provider: 'acme', model: 'org/model' });
  t.is(providerModelRef('kbqa-hash-embed-512'), null);
  t.is(providerModelRef('/x'), null);
  const kb = (id: string, embedding_model: string, rerank: string | null) => knowledgeBaseUses({ id, settings: { embedding_model, rerank: { model: rerank } } });
  const none = () => false;
  t.deepEqual(usersOf('acme', [kb('a', 'acme/e', null), kb('b', 'kbqa-hash-embed-512', 'acme/r'), kb('c', 'acme-two/e', null), kb('d', 'kbqa-hash-embed-512', null)], none), ['a', 'b']);
});

const agent = (id: string, draft: string, published: string | null) => agentUses({ id, draft: { name: `Agent ${id}`, model: draft }, published: published === null ? null : { config: { model: published } } });

test('an agent uses a provider by its draft’s or its published version’s chat model, and is named with its id', (t) => {
  const none = () => false;
  t.deepEqual(usersOf('acme', [agent('agt_1', 'acme/chat', null), agent('agt_2', 'kbqa-extractive', 'acme/chat'), agent('agt_3', 'kbqa-extractive', 'other/chat')], none), [
    'Agent agt_1 (agt_1)',
    'Agent agt_2 (agt_2)',
  ]);
});

test('a deployment model with a slash in its id is the deployment’s, whatever provider shares its prefix', (t) => {
  const deployment = (id: string) => id === 'acme/bge-m3';
  const kbs = [knowledgeBaseUses({ id: 'kb_1', settings: { embedding_model: 'acme/bge-m3', rerank: { model: null } } })];
  t.deepEqual(usersOf('acme', kbs, deployment), []);
  t.deepEqual(usersOf('acme', kbs, () => false), ['kb_1']);
  t.deepEqual(strandedBy('acme', [], [{ id: 'bge-m3', type: 'embedding', dimensions: 4 }], kbs, deployment), []);
});

test('a model list strands the users of a model it drops, or of an embedding model it resizes; other changes are free', (t) => {
  const none = () => false;
  const current = [
    { id: 'e', type: 'embedding' as const, dimensions: 8 },
    { id: 'r', type: 'rerank' as const },
    { id: 'c', type: 'chat' as const },
  ];
  const users = [knowledgeBaseUses({ id: 'kb_e', settings: { embedding_model: 'acme/e', rerank: { model: 'acme/r' } } }), agent('agt_c', 'acme/c', null)];
  t.deepEqual(strandedBy('acme', current, current, users, none), []);
  t.deepEqual(strandedBy('acme', [...current, { id: 'new', type: 'chat' }], current, users, none), []);
  t.deepEqual(strandedBy('acme', [current[0]!, current[2]!], current, users, none), ['kb_e']);
  t.deepEqual(strandedBy('acme', [{ ...current[0]!, dimensions: 16 }, current[1]!, current[2]!], current, users, none), ['kb_e']);
  t.deepEqual(strandedBy('acme', [current[0]!, current[1]!], current, users, none), ['Agent agt_c (agt_c)']);
  // The same id with another type is another model: a chat model turned embedding strands its agent.
  t.deepEqual(strandedBy('acme', [current[0]!, current[1]!, { id: 'c', type: 'embedding', dimensions: 4 }], current, users, none), ['Agent agt_c (agt_c)']);
});
