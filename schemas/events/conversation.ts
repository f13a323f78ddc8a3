import { z } from 'zod';

/** OpenAI's metadata: at most 16 pairs of short strings. */
export const ConversationMetadata = z
  .record(z.string().max(64), z.string().max(512))
  .refine((m) => Object.keys(m).length <= 16, 'at most 16 key-value pairs');

/** A citation of the answer, in the shape of OpenAI's file_citation, with the passage it names. */
export const ConversationAnnotation = z.strictObject({
  type: z.literal('file_citation'),
  /** The cited document. */
  file_id: z.string(),
  filename: z.string(),
  /** The citation's number in the answer ([1], [2] …). */
  index: z.int().min(0),
  knowledge_base_id: z.string().optional(),
  /** The version of the document the chunk belongs to (issue 44); absent in records from before versions: 1. */
  document_version: z.int().min(1).optional(),
  chunk_id: z.string().optional(),
  page: z.int().min(1).optional(),
});

/** Who wrote a message of a conversation: OpenAI's roles, less `tool`. */
export const MessageRole = z.enum(['user', 'assistant', 'system', 'developer']);
export type MessageRole = z.infer<typeof MessageRole>;

/** A question's text is input, an answer's output. */
export const ContentPartType = z.enum(['input_text', 'output_text']);

export const ConversationContentPart = z.strictObject({
  type: ContentPartType,
  text: z.string(),
  annotations: z.array(ConversationAnnotation).optional(),
});

/** One message of a conversation, as OpenAI's Conversations API lists it. */
export const ConversationItem = z.strictObject({
  type: z.literal('message'),
  id: z.string(),
  role: MessageRole,
  status: z.literal('completed'),
  content: z.array(ConversationContentPart),
});

const ids = { conversation_id: z.string() };

export const ConversationCreated = z.strictObject({
  ...ids,
  workspace_id: z.string(),
  metadata: ConversationMetadata,
  created_at: z.iso.datetime(),
});

/**
 * Messages appended in order: by a client, or by a chat (its question and answer, with the chat's
 * id and the knowledge bases it searched; reading the conversation then needs access to them).
 */
export const ConversationItemsAdded = z.strictObject({
  ...ids,
  items: z.array(ConversationItem).min(1).max(20),
  chat_id: z.string().optional(),
  knowledge_base_ids: z.array(z.string()).optional(),
  added_at: z.iso.datetime(),
});

export const ConversationItemDeleted = z.strictObject({ ...ids, item_id: z.string(), deleted_at: z.iso.datetime() });

export const ConversationUpdated = z.strictObject({ ...ids, metadata: ConversationMetadata, updated_at: z.iso.datetime() });

/** Names the items still in the conversation, so their read models go with it. */
export const ConversationDeleted = z.strictObject({ ...ids, item_ids: z.array(z.string()), deleted_at: z.iso.datetime() });

export const conversationEvents = { ConversationCreated, ConversationItemsAdded, ConversationItemDeleted, ConversationUpdated, ConversationDeleted } as const;
