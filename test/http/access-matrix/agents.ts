import type { Caller, Recipe, Target, World } from './recipe.ts';
import { siblingOf, touchesSibling } from './workflows.ts';

/**
 * The access matrix's recipes for the agents capability's routes (see recipe.ts for what a recipe
 * says). An agent is reached by its id and belongs to its knowledge bases: another workspace's is
 * not there (404), a key limited to other knowledge bases is refused (403). The agents are made by
 * the target workspace's admin over the target knowledge base.
 */
const agentBody = (t: Target) => ({ name: 'made in the matrix', model: 'kbqa-extractive', knowledge_base_ids: [t.kb.id], instructions: 'Answer briefly.' });

async function freshAgent(t: Target, w: World, publish = false): Promise<string> {
  const created = await w.server.call('POST', '/v1/agents', { key: t.admin, json: agentBody(t) });
  if (created.status !== 201) throw new Error(`the matrix's agent answered ${created.status}: ${JSON.stringify(created.body)}`);
  if (publish && (await w.server.call('POST', `/v1/agents/${created.body.id}/publish`, { key: t.admin })).status !== 200) throw new Error('publishing the matrix’s agent failed');
  return created.body.id as string;
}

/** One agent per knowledge base for the routes that only read or change it. */
const shared = new Map<string, Promise<string>>();
const agentOf = (t: Target, w: World) => {
  if (!shared.has(t.kb.id)) shared.set(t.kb.id, freshAgent(t, w, true));
  return shared.get(t.kb.id)!;
};

/**
 * An agent that moved (issue 42, item 6): version 1 answered from the sibling knowledge base and is
 * named with its marker; the draft and version 2, published, answer from the target.
 */
async function movedAgent(t: Target, w: World): Promise<string> {
  const sibling = await siblingOf(t, w);
  const call = async (method: string, path: string, json?: unknown) => {
    const { status, body } = await w.server.call(method, path, { key: t.admin, json });
    if (status >= 300) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(body)}`);
    return body;
  };
  const agent = await call('POST', '/v1/agents', { ...agentBody(t), name: `moved from ${sibling.marker}`, instructions: `Answer from ${sibling.marker}.`, knowledge_base_ids: [sibling.id] });
  await call('POST', `/v1/agents/${agent.id}/publish`);
  await call('PATCH', `/v1/agents/${agent.id}`, { name: `moved to ${t.kb.marker}`, instructions: `Answer from ${t.kb.marker}.`, knowledge_base_ids: [t.kb.id] });
  await call('POST', `/v1/agents/${agent.id}/publish`);
  return agent.id as string;
}
const moved = new Map<string, Promise<string>>();
const sharedMoved = (t: Target, w: World) => {
  if (!moved.has(t.kb.id)) moved.set(t.kb.id, movedAgent(t, w));
  return moved.get(t.kb.id)!;
};

/** An agent answering from a workflow counts as every knowledge base: a limited key may neither make one nor turn one into one (issue 42, item 8). */
const toWorkflow = (ok: number) => (c: Caller, t: Target) => (c.workspace !== t.workspace ? 404 : c.limitedTo !== null ? 403 : ok);

export const recipes: Record<string, Recipe[]> = {
  'POST /v1/agents': [
    { via: 'kb', ok: 201, request: (t) => ({ method: 'POST', path: '/v1/agents', json: agentBody(t) }) },
    {
      via: 'kb',
      ok: 201,
      label: 'workflow-backed',
      // The limit is checked before the workflow is looked up, as a knowledge base's id is.
      statusFor: (c, t) => (c.limitedTo !== null ? 403 : toWorkflow(201)(c, t)),
      request: (t) => ({ method: 'POST', path: '/v1/agents', json: { name: 'made in the matrix', model: 'kbqa-extractive', workflow_id: t.kb.workflowId } }),
    },
  ],
  'GET /v1/agents': [{ via: 'global', ok: 200, request: () => ({ method: 'GET', path: '/v1/agents?limit=100' }) }],
  'GET /v1/agents/{agent_id}': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'GET', path: `/v1/agents/${await agentOf(t, w)}` }) }],
  'PATCH /v1/agents/{agent_id}': [
    { via: 'owned', ok: 200, request: async (t, w) => ({ method: 'PATCH', path: `/v1/agents/${await agentOf(t, w)}`, json: { opening_message: 'Hello from the matrix.' } }) },
    {
      via: 'owned',
      ok: 200,
      label: 'to a workflow',
      statusFor: toWorkflow(200),
      request: async (t, w) => ({ method: 'PATCH', path: `/v1/agents/${await freshAgent(t, w)}`, json: { knowledge_base_ids: [], workflow_id: t.kb.workflowId } }),
    },
  ],
  'DELETE /v1/agents/{agent_id}': [
    { via: 'owned', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `/v1/agents/${await freshAgent(t, w)}` }) },
    {
      via: 'owned',
      ok: 200,
      label: 'an older version answered from another knowledge base',
      statusFor: touchesSibling(200),
      request: async (t, w) => ({ method: 'DELETE', path: `/v1/agents/${await movedAgent(t, w)}` }),
    },
  ],
  'POST /v1/agents/{agent_id}/publish': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'POST', path: `/v1/agents/${await freshAgent(t, w)}/publish` }) }],
  'POST /v1/agents/{agent_id}/unpublish': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'POST', path: `/v1/agents/${await freshAgent(t, w, true)}/unpublish` }) }],
  'GET /v1/agents/{agent_id}/versions': [
    { via: 'owned', ok: 200, request: async (t, w) => ({ method: 'GET', path: `/v1/agents/${await agentOf(t, w)}/versions` }) },
    // Version 1 is left out for a key limited to the target: the list still answers, with version 2.
    { via: 'owned', ok: 200, reveals: true, label: 'an older version answered from another knowledge base', request: async (t, w) => ({ method: 'GET', path: `/v1/agents/${await sharedMoved(t, w)}/versions` }) },
  ],
};
