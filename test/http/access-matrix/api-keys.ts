import { type Recipe } from './recipe.ts';

/** The access matrix's recipes for the api-keys capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'POST /v1/api-keys': [
    {
      via: 'kb',
      ok: 201,
      request: (t) => ({ method: 'POST', path: '/v1/api-keys', json: { name: 'made in the matrix', scopes: ['read'], knowledge_base_ids: [t.kb.id] } }),
    },
  ],
  'GET /v1/api-keys': [{ via: 'global', ok: 200, lists: true, request: () => ({ method: 'GET', path: '/v1/api-keys?limit=100&order=asc' }) }],
  'DELETE /v1/api-keys/{key_id}': [{ via: 'owned', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `/v1/api-keys/${await w.freshKey(t)}` }) }],
};
