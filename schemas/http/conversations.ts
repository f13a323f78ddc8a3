import { z } from 'zod';
import { FeedbackRating } from '../events/chat.ts';
import { ContentPartType, ConversationItem, ConversationMetadata, MessageRole } from '../events/conversation.ts';
import { ConversationDoc } from '../read-models/conversations.ts';
import { SortOrder } from './common.ts';

/** So that an item always fits in an event (well under 512 KB, however its text escapes in JSON). */
const Text = z.string().max(50_000);

/** As OpenAI takes an item: a message whose content is a string or a list of text parts. */
export const ConversationItemInput = z.object({
  type: z.literal('message').optional(),
  role: MessageRole,
  content: z.union([
    Text,
    z
      .array(z.object({ type: z.enum([...ContentPartType.options, 'text']), text: Text }))
      .min(1)
      .max(20),
  ]),
});

const Items = z.array(ConversationItemInput).max(20, 'at most 20 items at a time');

export const CreateConversationBody = z.strictObject({
  items: Items.nullable().optional(),
  metadata: ConversationMetadata.nullable().optional().describe('Up to 16 key-value pairs (keys up to 64 characters, values up to 512)'),
});

export const UpdateConversationBody = z.strictObject({ metadata: ConversationMetadata });

export const AddItemsBody = z.strictObject({ items: Items.min(1, 'needs at least one item') });

/** The `include` of OpenAI's item routes: accepted, nothing extra to include here. */
export const ItemsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().min(1).max(200).optional(),
  order: SortOrder.default('desc'),
  include: z.union([z.string(), z.array(z.string())]).optional(),
});
export const ItemQuery = z.strictObject({ include: z.union([z.string(), z.array(z.string())]).optional() });

/** OpenAI's Conversation object: the read model's id and metadata, its creation time in Unix seconds. */
export const Conversation = z.object({
  id: ConversationDoc.shape.id,
  object: ConversationDoc.shape.object,
  created_at: z.int().describe('Unix seconds'),
  metadata: ConversationDoc.shape.metadata,
});
export type Conversation = z.infer<typeof Conversation>;

export { ConversationItem };

export const FeedbackBody = z.strictObject({
  rating: FeedbackRating.describe('Thumbs up or down'),
  comment: z.string().max(2000).nullable().optional(),
});

export const Feedback = z.object({
  id: z.string(),
  object: z.literal('chat.completion.feedback'),
  chat_completion_id: z.string(),
  rating: FeedbackRating,
  comment: z.string().nullable(),
  conversation_id: z.string().optional(),
  item_id: z.string().optional(),
  created_at: z.int(),
});
