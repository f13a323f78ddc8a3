import type { z } from 'zod';
import { conversationEvents, type ConversationItem } from '../../../schemas/events/conversation.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, missing, notFound } from '../shared/errors.ts';

type Events = typeof conversationEvents;
export type ConversationEvent = { [K in keyof Events]: { type: K; data: z.infer<Events[K]> } }[keyof Events];
type Item = z.infer<typeof ConversationItem>;
type Metadata = Record<string, string>;

type Target = { conversation_id: string; workspace_id: string };

export type ConversationCommand =
  | Command<'CreateConversation', Target & { metadata: Metadata; items: Item[] }>
  | Command<'AddItems', Target & { items: Item[]; chat_id?: string; knowledge_base_ids?: string[] }>
  | Command<'DeleteItem', Target & { item_id: string }>
  | Command<'UpdateConversation', Target & { metadata: Metadata }>
  | Command<'DeleteConversation', Target>;

export type ConversationState =
  | { status: 'absent' }
  | { status: 'active' | 'deleted'; workspaceId: string; itemIds: string[] };

export const itemNotFound = (conversationId: string, id: string) =>
  notFound('item_not_found', `No item found with id '${id}' in conversation '${conversationId}'.`);

/** A conversation of one workspace: items are appended in order, deleted one by one, or all with it. */
export const conversationDecider: Decider<ConversationState, ConversationCommand, ConversationEvent> = {
  initialState: () => ({ status: 'absent' }),
  streamId: (id) => `conversation-${id}`,
  isEvent: eventsOf(conversationEvents),
  decide(command, state) {
    const { data, metadata } = command;
    const conversation_id = data.conversation_id;
    switch (command.type) {
      case 'CreateConversation': {
        if (state.status !== 'absent') throw conflict('conversation_exists', `conversation ${conversation_id} already exists`);
        const created: ConversationEvent = { type: 'ConversationCreated', data: { conversation_id, workspace_id: data.workspace_id, metadata: command.data.metadata, created_at: metadata.now } };
        const { items } = command.data;
        return items.length === 0 ? [created] : [created, { type: 'ConversationItemsAdded', data: { conversation_id, items, added_at: metadata.now } }];
      }
      case 'AddItems': {
        requireActive(state, data);
        const { items, chat_id, knowledge_base_ids } = command.data;
        return [{ type: 'ConversationItemsAdded', data: { conversation_id, items, ...(chat_id && { chat_id }), ...(knowledge_base_ids?.length && { knowledge_base_ids }), added_at: metadata.now } }];
      }
      case 'DeleteItem': {
        const { item_id } = command.data;
        if (!requireActive(state, data).itemIds.includes(item_id)) throw itemNotFound(conversation_id, item_id);
        return [{ type: 'ConversationItemDeleted', data: { conversation_id, item_id, deleted_at: metadata.now } }];
      }
      case 'UpdateConversation':
        requireActive(state, data);
        return [{ type: 'ConversationUpdated', data: { conversation_id, metadata: command.data.metadata, updated_at: metadata.now } }];
      case 'DeleteConversation':
        return [{ type: 'ConversationDeleted', data: { conversation_id, item_ids: requireActive(state, data).itemIds, deleted_at: metadata.now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ConversationCreated':
        return { status: 'active', workspaceId: event.data.workspace_id, itemIds: [] };
      case 'ConversationItemsAdded':
        return state.status === 'absent' ? state : { ...state, itemIds: [...state.itemIds, ...event.data.items.map((i) => i.id)] };
      case 'ConversationItemDeleted':
        return state.status === 'absent' ? state : { ...state, itemIds: state.itemIds.filter((id) => id !== event.data.item_id) };
      case 'ConversationUpdated':
        return state;
      case 'ConversationDeleted':
        return state.status === 'absent' ? state : { ...state, status: 'deleted', itemIds: [] };
      default:
        return assertNever(event);
    }
  },
};

function requireActive(state: ConversationState, target: Target) {
  // Another workspace's conversation answers exactly like a missing one.
  if (state.status !== 'active' || state.workspaceId !== target.workspace_id) throw missing('conversation', target.conversation_id);
  return state;
}
