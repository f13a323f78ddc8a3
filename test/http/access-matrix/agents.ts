import type { Recipe, Target, World } from './recipe.ts';

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

export const recipes: Record<string, Recipe[]> = {
  'POST /v1/agents': [{ via: 'kb', ok: 201, request: (t) => ({ method: 'POST', path: '/v1/agents', json: agentBody(t) }) }],
  'GET /v1/agents': [{ via: 'global', ok: 200, request: () => ({ method: 'GET', path: '/v1/agents?limit=100' }) }],
  'GET /v1/agents/{agent_id}': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'GET', path: `/v1/agents/${await agentOf(t, w)}` }) }],
  'PATCH /v1/agents/{agent_id}': [
    { via: 'owned', ok: 200, request: async (t, w) => ({ method: 'PATCH', path: `/v1/agents/${await agentOf(t, w)}`, json: { opening_message: 'Hello from the matrix.' } }) },
  ],
  'DELETE /v1/agents/{agent_id}': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `/v1/agents/${await freshAgent(t, w)}` }) }],
  'POST /v1/agents/{agent_id}/publish': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'POST', path: `/v1/agents/${await freshAgent(t, w)}/publish` }) }],
  'POST /v1/agents/{agent_id}/unpublish': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'POST', path: `/v1/agents/${await freshAgent(t, w, true)}/unpublish` }) }],
  'GET /v1/agents/{agent_id}/versions': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'GET', path: `/v1/agents/${await agentOf(t, w)}/versions` }) }],
};
