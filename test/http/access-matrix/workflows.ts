import { knowledgeQaGraph } from '../../../src/domain/workflow/knowledge-qa.ts';
import { type Recipe, QUESTION } from './recipe.ts';

/** The access matrix's recipes for the workflows capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'POST /v1/workflows': [
    { via: 'kb', ok: 201, request: (t) => ({ method: 'POST', path: '/v1/workflows', json: { name: 'made in the matrix', template: 'knowledge-qa', knowledge_base_id: t.kb.id } }) },
  ],
  'GET /v1/workflows': [{ via: 'global', ok: 200, lists: true, request: () => ({ method: 'GET', path: '/v1/workflows?limit=100&order=asc' }) }],
  'GET /v1/workflows/{workflow_id}': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `/v1/workflows/${t.kb.workflowId}` }) }],
  'PUT /v1/workflows/{workflow_id}': [
    {
      via: 'owned',
      ok: 200,
      reveals: true,
      request: async (t, w) => {
        const { body } = await w.server.call('GET', `/v1/workflows/${t.kb.workflowId}`, { key: t.admin });
        return { method: 'PUT', path: `/v1/workflows/${t.kb.workflowId}`, json: { name: body.name, graph: body.graph } };
      },
    },
  ],
  'DELETE /v1/workflows/{workflow_id}': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `/v1/workflows/${await w.freshWorkflow(t)}` }) }],
  'POST /v1/workflows/{workflow_id}/run': (['blocking', 'streaming', 'async'] as const).map(
    (mode): Recipe => ({
      via: 'owned',
      ok: mode === 'async' ? 202 : 200,
      reveals: mode !== 'async',
      label: mode,
      request: (t) => ({ method: 'POST', path: `/v1/workflows/${t.kb.workflowId}/run`, json: { inputs: { question: QUESTION }, response_mode: mode } }),
    }),
  ),
  'POST /v1/workflows/{workflow_id}/publish': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'POST', path: `/v1/workflows/${t.kb.workflowId}/publish` }) }],
  'GET /v1/workflows/{workflow_id}/versions': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `/v1/workflows/${t.kb.workflowId}/versions` }) }],
  'POST /v1/workflows/validate': [{ via: 'kb', ok: 200, request: (t) => ({ method: 'POST', path: '/v1/workflows/validate', json: { graph: knowledgeQaGraph(t.kb.id) } }) }],
  'GET /v1/workflows/{workflow_id}/runs': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `/v1/workflows/${t.kb.workflowId}/runs` }) }],
  'POST /v1/workflows/{workflow_id}/nodes/{node_id}/run': [
    {
      via: 'owned',
      ok: 200,
      reveals: true,
      request: (t) => ({ method: 'POST', path: `/v1/workflows/${t.kb.workflowId}/nodes/retrieve/run`, json: { inputs: { start: { question: QUESTION } } } }),
    },
  ],
  'GET /v1/workflow-runs/{run_id}/trace': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `/v1/workflow-runs/${t.kb.runId}/trace` }) }],
  'GET /v1/workflow-runs/{run_id}/events': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `/v1/workflow-runs/${t.kb.runId}/events` }) }],
  'GET /v1/workflow-runs/{run_id}': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `/v1/workflow-runs/${t.kb.runId}` }) }],
};
