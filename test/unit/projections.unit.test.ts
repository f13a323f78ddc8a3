import test from 'ava';
import { allProjections } from '../../src/capabilities/index.ts';
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

const graph = { nodes: [{ id: 'start', type: 'start', timeout_ms: 1000, config: { inputs: [] } }], edges: [] };
const wfCreated = { type: 'WorkflowCreated', data: { workflow_id: 'wf_1', workspace_id: 'w', name: 'QA', description: null, graph, version: 1, created_at: T0 } };

test('workflow: the draft’s version and the published one; deleted leaves nothing', async (t) => {
  const published = { type: 'WorkflowPublished', data: { workflow_id: 'wf_1', version: 1, published_at: T1 } };
  await spec(t)
    .given(wfCreated, published, { type: 'WorkflowUpdated', data: { workflow_id: 'wf_1', name: 'QA 2', description: 'd', graph, version: 2, updated_at: T1 } })
    .then('workflows', {
      wf_1: { id: 'wf_1', object: 'workflow', workspace_id: 'w', name: 'QA 2', description: 'd', graph, version: 2, published_version: 1, published_at: T1, created_at: T0, updated_at: T1 },
    });
  await spec(t).given(wfCreated, { type: 'WorkflowDeleted', data: { workflow_id: 'wf_1', deleted_at: T1 } }).then('workflows', {});
});

test('workflow run: nodes with inputs, outputs, timings and errors; an interrupted node replaced by its retry', async (t) => {
  const run_id = 'run_1';
  const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
  await spec(t)
    .given(
      { type: 'WorkflowRunRequested', data: { run_id, workflow_id: 'wf_1', workflow_version: 1, workspace_id: 'w', inputs: { q: 'x' }, response_mode: 'async', requested_at: at(0) } },
      { type: 'WorkflowRunStarted', data: { run_id, started_at: at(1) } },
      { type: 'NodeRunStarted', data: { run_id, node_id: 'start', node_type: 'start', attempt: 1, inputs: {}, started_at: at(1) } },
      { type: 'NodeRunStarted', data: { run_id, node_id: 'start', node_type: 'start', attempt: 2, inputs: {}, started_at: at(2) } },
      { type: 'NodeRunSucceeded', data: { run_id, node_id: 'start', outputs: { q: 'x' }, elapsed_ms: 3, finished_at: at(2) } },
      { type: 'NodeRunStarted', data: { run_id, node_id: 'llm', node_type: 'llm', attempt: 1, inputs: { prompt: 'x' }, started_at: at(2) } },
      { type: 'NodeRunFailed', data: { run_id, node_id: 'llm', error: { code: 'timeout', message: 'slow' }, elapsed_ms: 900, finished_at: at(3) } },
      { type: 'WorkflowRunFailed', data: { run_id, error: { code: 'timeout', message: 'slow', node_id: 'llm' }, finished_at: at(3) } },
    )
    .then('workflow_runs', {
      run_1: {
        id: run_id,
        object: 'workflow_run',
        workspace_id: 'w',
        workflow_id: 'wf_1',
        workflow_version: 1,
        status: 'failed',
        response_mode: 'async',
        // A run requested before runs named their knowledge bases.
        knowledge_base_ids: null,
        inputs: { q: 'x' },
        outputs: null,
        node_runs: [
          { node_id: 'start', node_type: 'start', status: 'succeeded', attempt: 2, inputs: {}, outputs: { q: 'x' }, error: null, started_at: at(2), finished_at: at(2), elapsed_ms: 3 },
          { node_id: 'llm', node_type: 'llm', status: 'failed', attempt: 1, inputs: { prompt: 'x' }, outputs: null, error: { code: 'timeout', message: 'slow' }, started_at: at(2), finished_at: at(3), elapsed_ms: 900 },
        ],
        error: { code: 'timeout', message: 'slow', node_id: 'llm' },
        created_at: at(0),
        started_at: at(1),
        finished_at: at(3),
        elapsed_ms: 3000,
      },
    });
});

const uploaded = (document_id: string) => ({
  type: 'DocumentUploaded',
  streamId: `document-${document_id}`,
  data: { document_id, knowledge_base_id: 'kb_1', workspace_id: 'w', name: `${document_id}.txt`, media_type: 'text/plain', size_bytes: 10, sha256: 'c'.repeat(64), metadata: {}, chunking: { max_tokens: 512, overlap_tokens: 64 }, uploaded_at: T0 },
});
const parsed = (document_id: string, chunk_count: number) => ({
  type: 'DocumentParsed',
  streamId: `document-${document_id}`,
  data: { document_id, knowledge_base_id: 'kb_1', attempt: 1, media_type: 'text/plain', page_count: 1, chunk_count, batch_count: 1, ocr_pages: [], warnings: [], parse_ms: 1, parsed_at: T0 },
});
const indexed = (document_id: string, chunk_count: number) => ({
  type: 'DocumentIndexed',
  streamId: `document-${document_id}`,
  data: { document_id, knowledge_base_id: 'kb_1', chunk_count, entity_count: 0, embedding_model: 'm', index_ms: 1, indexed_at: T1 },
});

test('knowledge-base totals: every live document counts, and its chunks once it is ready', async (t) => {
  await spec(t)
    .given(
      uploaded('d1'), parsed('d1', 3), indexed('d1', 3),
      uploaded('d2'), parsed('d2', 5),
      uploaded('d3'), parsed('d3', 7), indexed('d3', 7),
      { type: 'DocumentDeleted', streamId: 'document-d3', data: { document_id: 'd3', knowledge_base_id: 'kb_1', batch_count: 1, indexed_chunk_count: 7, sha256: 'c'.repeat(64), deleted_at: T1 } },
    )
    .then('knowledge_base_totals', { '0': { document_count: 2, chunk_count: 3 } });
});
