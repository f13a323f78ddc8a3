import { type Recipe, QUESTION, chat } from './recipe.ts';

/** The access matrix's recipes for the chat capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'POST /v1/chat/completions': [
    {
      via: 'kb',
      ok: 200,
      reveals: true,
      label: 'knowledge_base_ids',
      request: (t) => ({ method: 'POST', path: '/v1/chat/completions', json: { ...chat(t, false), knowledge_base_id: undefined, knowledge_base_ids: [t.kb.id] } }),
    },
    { via: 'kb', ok: 200, reveals: true, label: 'blocking', request: (t) => ({ method: 'POST', path: '/v1/chat/completions', json: chat(t, false) }) },
    { via: 'kb', ok: 200, reveals: true, label: 'streaming', request: (t) => ({ method: 'POST', path: '/v1/chat/completions', json: chat(t, true) }) },
    {
      via: 'global',
      ok: 200,
      label: 'no knowledge base',
      request: () => ({ method: 'POST', path: '/v1/chat/completions', json: { model: 'kbqa-extractive', messages: [{ role: 'user', content: QUESTION }] } }),
    },
  ],
  'POST /v1/chat': [{ via: 'kb', ok: 200, reveals: true, request: (t) => ({ method: 'POST', path: '/v1/chat', json: chat(t, false) }) }],
};
