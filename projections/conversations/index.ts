import type { ConversationDoc, ConversationItemDoc } from '../../schemas/read-models/conversations.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { ConversationDoc, ConversationItemDoc };

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
