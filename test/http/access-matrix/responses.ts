import { type Recipe, QUESTION, respond, storedResponse } from './recipe.ts';

/** The access matrix's recipes for the responses capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'POST /v1/responses': [
    { via: 'kb', ok: 200, reveals: true, label: 'blocking', request: (t) => ({ method: 'POST', path: '/v1/responses', json: respond(t, false) }) },
    { via: 'kb', ok: 200, reveals: true, label: 'streaming', request: (t) => ({ method: 'POST', path: '/v1/responses', json: respond(t, true) }) },
    { via: 'global', ok: 200, label: 'no knowledge base', request: () => ({ method: 'POST', path: '/v1/responses', json: { model: 'kbqa-extractive', input: QUESTION } }) },
  ],
  'GET /v1/responses/{response_id}': [
    { via: 'owned', ok: 200, reveals: true, hidesOutsideLimit: true, request: async (t, w) => ({ method: 'GET', path: `/v1/responses/${await storedResponse(t, w)}` }) },
  ],
  'DELETE /v1/responses/{response_id}': [
    { via: 'owned', ok: 200, hidesOutsideLimit: true, request: async (t, w) => ({ method: 'DELETE', path: `/v1/responses/${await storedResponse(t, w)}` }) },
  ],
  'GET /v1/responses/{response_id}/input_items': [
    { via: 'owned', ok: 200, hidesOutsideLimit: true, request: async (t, w) => ({ method: 'GET', path: `/v1/responses/${await storedResponse(t, w)}/input_items` }) },
  ],
};
