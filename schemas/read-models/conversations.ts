import { z } from 'zod';
import { ConversationItem } from '../events/conversation.ts';

/** A conversation as the conversations projection stores it (projections/conversations). */
export const ConversationDoc = z.object({
  id: z.string(),
  object: z.literal('conversation'),
  workspace_id: z.string(),
  metadata: z.record(z.string(), z.string()),
  /** Every knowledge base a chat of this conversation searched: a key must be allowed them all to read it. */
  knowledge_base_ids: z.array(z.string()),
  /** Its items in the order they were added: a chat reads them by id, never by scanning every conversation's items. */
  item_ids: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ConversationDoc = z.infer<typeof ConversationDoc>;

/** One item of a conversation, as the conversation-items projection stores it. */
export const ConversationItemDoc = z.object({
  id: z.string(),
  conversation_id: z.string(),
  /** The chat that added the item (its question or its answer), for feedback on it; null for a client's item. */
  chat_id: z.string().nullable(),
  item: ConversationItem,
});
export type ConversationItemDoc = z.infer<typeof ConversationItemDoc>;
