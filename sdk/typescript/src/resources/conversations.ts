import type { Transport } from '../http.ts';
import type { Conversation, ConversationItem, ConversationItemInput, Deleted, Feedback, FeedbackParams, ListParams, Page } from '../types.ts';

type Options = { signal?: AbortSignal };
const path = (id: string) => `/conversations/${encodeURIComponent(id)}`;
const itemPath = (id: string, itemId: string) => `${path(id)}/items/${encodeURIComponent(itemId)}`;

/**
 * Conversations kept by the server (OpenAI's Conversations API): pass `conversation` to
 * `chat.create`/`chat.stream`/`query` and send only the new message; the turn is added to it.
 */
export function conversationsResource(t: Transport) {
  return {
    async create(params: { items?: ConversationItemInput[]; metadata?: Record<string, string> } & Options = {}): Promise<Conversation> {
      const { signal, ...json } = params;
      return (await t.json<Conversation>({ method: 'POST', path: '/conversations', json, signal })).body;
    },
    async get(id: string, options: Options = {}): Promise<Conversation> {
      return (await t.json<Conversation>({ method: 'GET', path: path(id), signal: options.signal })).body;
    },
    /** Replaces the conversation's metadata. */
    async update(id: string, metadata: Record<string, string>, options: Options = {}): Promise<Conversation> {
      return (await t.json<Conversation>({ method: 'POST', path: path(id), json: { metadata }, signal: options.signal })).body;
    },
    async delete(id: string, options: Options = {}): Promise<Deleted> {
      return (await t.json<Deleted>({ method: 'DELETE', path: path(id), signal: options.signal })).body;
    },
    items: {
      /** Newest first unless `order: 'asc'`. */
      async list(id: string, params: ListParams & Options = {}): Promise<Page<ConversationItem>> {
        const { signal, ...query } = params;
        return (await t.json<Page<ConversationItem>>({ method: 'GET', path: `${path(id)}/items`, query, signal })).body;
      },
      async create(id: string, items: ConversationItemInput[], options: Options = {}): Promise<Page<ConversationItem>> {
        return (await t.json<Page<ConversationItem>>({ method: 'POST', path: `${path(id)}/items`, json: { items }, signal: options.signal })).body;
      },
      async get(id: string, itemId: string, options: Options = {}): Promise<ConversationItem> {
        return (await t.json<ConversationItem>({ method: 'GET', path: itemPath(id, itemId), signal: options.signal })).body;
      },
      /** Resolves with the conversation the item was deleted from. */
      async delete(id: string, itemId: string, options: Options = {}): Promise<Conversation> {
        return (await t.json<Conversation>({ method: 'DELETE', path: itemPath(id, itemId), signal: options.signal })).body;
      },
      /** Rates the chat that added the item (its question or its answer). */
      async feedback(id: string, itemId: string, params: FeedbackParams & Options): Promise<Feedback> {
        const { signal, ...json } = params;
        return (await t.json<Feedback>({ method: 'POST', path: `${itemPath(id, itemId)}/feedback`, json, signal })).body;
      },
    },
  };
}

export type ConversationsResource = ReturnType<typeof conversationsResource>;
