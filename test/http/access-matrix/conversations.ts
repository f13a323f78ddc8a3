import { type Recipe, QUESTION, chat, convPath } from './recipe.ts';

/** The access matrix's recipes for the conversations capability's routes (see recipe.ts for what a recipe says). */
export const recipes: Record<string, Recipe[]> = {
  'POST /v1/conversations': [
    { via: 'global', ok: 200, request: () => ({ method: 'POST', path: '/v1/conversations', json: { items: [{ role: 'user', content: QUESTION }] } }) },
  ],
  'GET /v1/conversations/{conversation_id}': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: convPath(t) }) }],
  'POST /v1/conversations/{conversation_id}': [
    { via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'POST', path: convPath(t), json: { metadata: { topic: t.kb.marker } } }) },
  ],
  'DELETE /v1/conversations/{conversation_id}': [
    { via: 'owned', ok: 200, request: async (t, w) => ({ method: 'DELETE', path: `/v1/conversations/${(await w.freshConversation(t)).conversationId}` }) },
  ],
  'GET /v1/conversations/{conversation_id}/items': [{ via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${convPath(t)}/items?order=asc&limit=100` }) }],
  'POST /v1/conversations/{conversation_id}/items': [
    { via: 'owned', ok: 200, request: (t) => ({ method: 'POST', path: `${convPath(t)}/items`, json: { items: [{ role: 'user', content: 'Thanks.' }] } }) },
  ],
  'GET /v1/conversations/{conversation_id}/items/{item_id}': [
    { via: 'owned', ok: 200, reveals: true, request: (t) => ({ method: 'GET', path: `${convPath(t)}/items/${t.kb.conversation.answerItemId}` }) },
  ],
  'DELETE /v1/conversations/{conversation_id}/items/{item_id}': [
    {
      via: 'owned',
      ok: 200,
      request: async (t, w) => {
        const { conversationId, answerItemId } = await w.freshConversation(t);
        return { method: 'DELETE', path: `/v1/conversations/${conversationId}/items/${answerItemId}` };
      },
    },
  ],
  'POST /v1/conversations/{conversation_id}/items/{item_id}/feedback': [
    { via: 'owned', ok: 201, request: (t) => ({ method: 'POST', path: `${convPath(t)}/items/${t.kb.conversation.answerItemId}/feedback`, json: { rating: 'up' } }) },
  ],
  'POST /v1/chat/completions/{completion_id}/feedback': [
    { via: 'owned', ok: 201, request: (t) => ({ method: 'POST', path: `/v1/chat/completions/${t.kb.conversation.chatId}/feedback`, json: { rating: 'down', comment: 'matrix' } }) },
  ],
};
