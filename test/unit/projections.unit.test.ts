import test from 'ava';
import { allProjections } from '../../projections/index.ts';
import { defaultSettings } from '../../schemas/knowledge-base-settings.ts';
import { projectionSpec } from '../helpers/projection-spec.ts';

const spec = projectionSpec(allProjections);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const settings = defaultSettings('m');
const kbCreated = {
  type: 'KnowledgeBaseCreated',
  data: { knowledge_base_id: 'kb_1', workspace_id: 'w', name: 'A', description: null, settings, created_at: T0 },
};

test('knowledge base: created then updated', async (t) => {
  await spec(t)
    .given(kbCreated, {
      type: 'KnowledgeBaseUpdated',
      data: { knowledge_base_id: 'kb_1', name: 'B', description: 'd', settings: { ...settings, top_k: 9 }, updated_at: T1 },
    })
    .then('knowledge_bases', {
      kb_1: {
        id: 'kb_1',
        object: 'knowledge_base',
        workspace_id: 'w',
        name: 'B',
        description: 'd',
        settings: { ...settings, top_k: 9 },
        document_count: 0,
        chunk_count: 0,
        created_at: T0,
        updated_at: T1,
        revision: 1,
      },
    });
});

test('knowledge base: deleted leaves nothing', async (t) => {
  await spec(t).given(kbCreated, { type: 'KnowledgeBaseDeleted', data: { knowledge_base_id: 'kb_1', deleted_at: T1 } }).then('knowledge_bases', {});
});

const keyCreated = {
  type: 'ApiKeyCreated',
  data: {
    key_id: 'key_1',
    workspace_id: 'w',
    name: 'n',
    hash: 'b'.repeat(64),
    prefix: 'kbqa-xyz',
    scopes: ['read'],
    knowledge_base_ids: null,
    expires_at: null,
    created_at: T0,
  },
};

test('api key: revoked keeps the key with revoked_at', async (t) => {
  const { key_id: _id, ...rest } = keyCreated.data;
  await spec(t)
    .given(keyCreated, { type: 'ApiKeyRevoked', data: { key_id: 'key_1', revoked_at: T1 } })
    .then('api_keys', { key_1: { id: 'key_1', object: 'api_key', ...rest, revoked_at: T1 } });
});

test('api key hashes: the hash finds the key id', async (t) => {
  await spec(t).given(keyCreated).then('api_key_hashes', { '0': { key_id: 'key_1' } });
});

test('workspaces', async (t) => {
  await spec(t)
    .given({ type: 'WorkspaceCreated', data: { workspace_id: 'w', name: 'W', created_at: T0 } })
    .then('workspaces', { w: { id: 'w', object: 'workspace', name: 'W', created_at: T0 } });
});
