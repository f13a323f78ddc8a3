import type { z } from 'zod';
import type { ConversationItem } from '../../schemas/events/conversation.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type ConversationDoc = {
  id: string;
  object: 'conversation';
  workspace_id: string;
  metadata: Record<string, string>;
  /** Every knowledge base a chat of this conversation searched: a key must be allowed them all to read it. */
  knowledge_base_ids: string[];
  /** Its items in the order they were added: a chat reads them by id, never by scanning every conversation's items. */
  item_ids: string[];
  created_at: string;
  updated_at: string;
};

export type ConversationItemDoc = {
  id: string;
  conversation_id: string;
  /** The chat that added the item (its question or its answer), for feedback on it; null for a client's item. */
  chat_id: string | null;
  item: z.infer<typeof ConversationItem>;
};

export const conversationsProjection = defineProjection<ConversationDoc>()({
  collection: 'conversations',
  eventTypes: ['ConversationCreated', 'ConversationItemsAdded', 'ConversationItemDeleted', 'ConversationUpdated', 'ConversationDeleted'],
  idsOf: (event) => [event.data.conversation_id],
  evolve(doc, event) {
    switch (event.type) {
      case 'ConversationCreated': {
        const d = event.data;
        return { id: d.conversation_id, object: 'conversation', workspace_id: d.workspace_id, metadata: d.metadata, knowledge_base_ids: [], item_ids: [], created_at: d.created_at, updated_at: d.created_at };
      }
      case 'ConversationItemsAdded': {
        const { knowledge_base_ids: added = [], items, added_at } = event.data;
        return doc && { ...doc, knowledge_base_ids: [...new Set([...doc.knowledge_base_ids, ...added])], item_ids: [...doc.item_ids, ...items.map((i) => i.id)], updated_at: added_at };
      }
      case 'ConversationItemDeleted':
        return doc && { ...doc, item_ids: doc.item_ids.filter((id) => id !== event.data.item_id), updated_at: event.data.deleted_at };
      case 'ConversationUpdated':
        return doc && { ...doc, metadata: event.data.metadata, updated_at: event.data.updated_at };
      case 'ConversationDeleted':
        return null;
      default:
        return assertNever(event);
    }
  },
});

/** One document per item; its conversation's document lists their ids in order. */
export const conversationItemsProjection = defineProjection<ConversationItemDoc>()({
  collection: 'conversation_items',
  eventTypes: ['ConversationItemsAdded', 'ConversationItemDeleted', 'ConversationDeleted'],
  idsOf(event) {
    switch (event.type) {
      case 'ConversationItemsAdded':
        return event.data.items.map((i) => i.id);
      case 'ConversationItemDeleted':
        return [event.data.item_id];
      case 'ConversationDeleted':
        return event.data.item_ids;
      default:
        return assertNever(event);
    }
  },
  evolve(_doc, event, id) {
    switch (event.type) {
      case 'ConversationItemsAdded': {
        const item = event.data.items.find((i) => i.id === id)!;
        return { id, conversation_id: event.data.conversation_id, chat_id: event.data.chat_id ?? null, item };
      }
      case 'ConversationItemDeleted':
      case 'ConversationDeleted':
        return null;
      default:
        return assertNever(event);
    }
  },
});
