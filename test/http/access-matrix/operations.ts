import { type Recipe } from './recipe.ts';

/** The access matrix's recipes for the operations capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'GET /healthz': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/healthz' }) }],
  'GET /readyz': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/readyz' }) }],
  'GET /metrics': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/metrics' }) }],
  'GET /v1': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/v1' }) }],
  'GET /v1/openapi.json': [{ via: 'public', ok: 200, request: () => ({ method: 'GET', path: '/v1/openapi.json' }) }],
};
