import { type Recipe } from './recipe.ts';

/** The access matrix's recipes for the models capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'GET /v1/models': [{ via: 'global', ok: 200, request: () => ({ method: 'GET', path: '/v1/models' }) }],
  'GET /v1/models/{model}': [{ via: 'global', ok: 200, request: () => ({ method: 'GET', path: '/v1/models/kbqa-extractive' }) }],
};
