import { type Recipe, QUESTION } from './recipe.ts';

/** The access matrix's recipes for the embeddings capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'POST /v1/embeddings': [{ via: 'global', ok: 200, request: () => ({ method: 'POST', path: '/v1/embeddings', json: { model: 'kbqa-hash-embed-512', input: QUESTION } }) }],
};
