import { knowledgeQaGraph } from '../../../src/domain/workflow/knowledge-qa.ts';
import { type Caller, type Kb, type Recipe, QUESTION, type Target, type World } from './recipe.ts';

/** Another knowledge base of the target's workspace: the one an older version of a "moved" workflow or agent reads. */
const siblings = new Map<string, Promise<Kb>>();
export function siblingOf(t: Target, w: World): Promise<Kb> {
  const { own_kb: own, other_kb: other } = w.kbs;
  if (t.kb.id === own.id) return Promise.resolve(other);
  if (t.kb.id === other.id) return Promise.resolve(own);
  if (!siblings.has(t.kb.id)) siblings.set(t.kb.id, w.freshKb(t.workspace));
  return siblings.get(t.kb.id)!;
}

/**
 * A workflow that moved (issue 42, items 6 and 7): version 1 reads the sibling knowledge base and
 * is named with its marker, the draft (version 2) reads the target and is named with the target's.
 * `published`: version 1 is the published one. A key that may read only the target sees the draft,
 * never version 1, and may neither publish over version 1 nor delete it.
 */
async function movedWorkflow(t: Target, w: World, published: boolean): Promise<string> {
  const sibling = await siblingOf(t, w);
  const call = async (method: string, path: string, json?: unknown) => {
    const { status, body } = await w.server.call(method, path, { key: t.admin, json });
    if (status >= 300) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(body)}`);
    return body;
  };
  const wf = await call('POST', '/v1/workflows', { name: `moved from ${sibling.marker}`, template: 'knowledge-qa', knowledge_base_id: sibling.id });
  if (published) await call('POST', `/v1/workflows/${wf.id}/publish`);
  await call('PUT', `/v1/workflows/${wf.id}`, { name: `moved to ${t.kb.marker}`, graph: knowledgeQaGraph(t.kb.id) });
  return wf.id as string;
}
const moved = new Map<string, Promise<string>>();
const sharedMoved = (t: Target, w: World) => {
  if (!moved.has(t.kb.id)) moved.set(t.kb.id, movedWorkflow(t, w, false));
  return moved.get(t.kb.id)!;
};

/** What touches a version beyond the draft: another workspace's is not there, and a limited key reads the draft's knowledge base at most, never the sibling's. */
export const touchesSibling = (ok: number) => (c: Caller, t: Target) => (c.workspace !== t.workspace ? 404 : c.limitedTo !== null ? 403 : ok);

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
  'DELETE /v1/workflows/{workflow_id}': [
    { via: 'owned', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `/v1/workflows/${await w.freshWorkflow(t)}` }) },
    {
      via: 'owned',
      ok: 200,
      label: 'an older version reads another knowledge base',
      statusFor: touchesSibling(200),
      request: async (t, w) => ({ method: 'DELETE', path: `/v1/workflows/${await movedWorkflow(t, w, false)}` }),
    },
  ],
  'POST /v1/workflows/{workflow_id}/run': (['blocking', 'streaming', 'async'] as const).map(
    (mode): Recipe => ({
      via: 'owned',
      ok: mode === 'async' ? 202 : 200,
      reveals: mode !== 'async',
      label: mode,
      request: (t) => ({ method: 'POST', path: `/v1/workflows/${t.kb.workflowId}/run`, json: { inputs: { question: QUESTION }, response_mode: mode } }),
    }),
  ),
  'POST /v1/workflows/{workflow_id}/publish': [
    { via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'POST', path: `/v1/workflows/${t.kb.workflowId}/publish` }) },
    {
      via: 'owned',
      ok: 200,
      reveals: true,
      label: 'the published version reads another knowledge base',
      statusFor: touchesSibling(200),
      request: async (t, w) => ({ method: 'POST', path: `/v1/workflows/${await movedWorkflow(t, w, true)}/publish` }),
    },
  ],
  'GET /v1/workflows/{workflow_id}/versions': [
    { via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `/v1/workflows/${t.kb.workflowId}/versions` }) },
    // Version 1 is left out for a key limited to the target: the list still answers, with the draft.
    { via: 'owned', ok: 200, reveals: true, label: 'an older version reads another knowledge base', request: async (t, w) => ({ method: 'GET', path: `/v1/workflows/${await sharedMoved(t, w)}/versions` }) },
  ],
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
