import { type Recipe, QUESTION, kbPath } from './recipe.ts';

/** The access matrix's recipes for the search capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'POST /v1/knowledge-bases/{kb_id}/search': [
    { via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'POST', path: `${kbPath(t)}/search`, json: { query: QUESTION } }) },
  ],
  'POST /v1/search': [
    { via: 'kb', ok: 200, reveals: true, label: 'knowledge_base_id', request: (t) => ({ method: 'POST', path: '/v1/search', json: { query: QUESTION, knowledge_base_id: t.kb.id } }) },
    { via: 'kb', ok: 200, reveals: true, label: 'knowledge_base_ids', request: (t) => ({ method: 'POST', path: '/v1/search', json: { query: QUESTION, knowledge_base_ids: [t.kb.id] } }) },
  ],
};
