import { type Recipe, QUESTION, mcp, mcpTool } from './recipe.ts';

/** The access matrix's recipes for the mcp capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'POST /mcp': [
    { via: 'global', ok: 200, lists: true, label: 'list_knowledge_bases', request: () => mcpTool('list_knowledge_bases', { limit: 100 }) },
    { via: 'global', ok: 200, lists: true, label: 'resources/list', request: () => mcp('resources/list', {}) },
    { via: 'kb', ok: 200, reveals: true, refusesInBody: true, label: 'search', request: (t) => mcpTool('search', { knowledge_base_id: t.kb.id, query: QUESTION }) },
    { via: 'kb', ok: 200, reveals: true, refusesInBody: true, label: 'ask', request: (t) => mcpTool('ask', { knowledge_base_id: t.kb.id, question: QUESTION }) },
    {
      via: 'kb',
      ok: 200,
      reveals: true,
      refusesInBody: true,
      label: 'resources/read',
      request: (t) => mcp('resources/read', { uri: `kbqa://knowledge-bases/${t.kb.id}/documents/${t.kb.documentId}` }),
    },
  ],
};
