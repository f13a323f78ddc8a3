import { type Recipe, kbPath } from './recipe.ts';

/** The access matrix's recipes for the knowledge-bases capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'POST /v1/knowledge-bases': [
    {
      via: 'global',
      ok: 201,
      globalStatus: (c) => (c.limitedTo !== null ? 403 : 201),
      request: () => ({ method: 'POST', path: '/v1/knowledge-bases', json: { name: 'made in the matrix' } }),
    },
  ],
  'GET /v1/knowledge-bases': [{ via: 'global', ok: 200, lists: true, request: () => ({ method: 'GET', path: '/v1/knowledge-bases?limit=100&order=asc' }) }],
  'GET /v1/knowledge-bases/{kb_id}': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: kbPath(t) }) }],
  'PATCH /v1/knowledge-bases/{kb_id}': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'PATCH', path: kbPath(t), json: { description: 'patched by the matrix' } }) }],
  // A fresh knowledge base per case: a second re-index of the same one while the first runs is 409.
  'POST /v1/knowledge-bases/{kb_id}/reindex': [{ via: 'kb', ok: 202, ownIsTarget: true, request: (t) => ({ method: 'POST', path: `${kbPath(t)}/reindex` }) }],
  'DELETE /v1/knowledge-bases/{kb_id}': [
    { via: 'kb', ok: 200, ownIsTarget: true, request: async (t) => ({ method: 'DELETE', path: kbPath(t) }) },
  ],
};
