import { z } from 'zod';

/** The roles of the messages a chat model reads: a `tool` message carries a function's result. */
export const ChatRole = z.enum(['system', 'user', 'assistant', 'tool']);
export type ChatRole = z.infer<typeof ChatRole>;

/** Why a model stopped: done, out of tokens, or to call functions. */
export const FinishReason = z.enum(['stop', 'length', 'tool_calls']);
export type FinishReason = z.infer<typeof FinishReason>;

/** A reader's thumbs up or down on an answer. */
export const FeedbackRating = z.enum(['up', 'down']);
export type FeedbackRating = z.infer<typeof FeedbackRating>;

export const ChatCitationRecord = z.strictObject({
  index: z.int().min(1),
  document_id: z.string(),
  /** Absent in chats recorded before a chat could search several knowledge bases. */
  knowledge_base_id: z.string().optional(),
  /** The version of the document the chunk belongs to (issue 44); absent in records from before versions: 1. */
  document_version: z.int().min(1).optional(),
  chunk_id: z.string(),
  source: z.string(),
  page: z.int().min(1),
  score: z.number(),
});

/**
 * One answered chat, for downstream systems (analytics, audit, evaluation). The question and the
 * answer are carried only when KBQA_STORE_CHAT_CONTENT=on: conversations may hold personal data,
 * and an event log is forever.
 */
export const ChatCompleted = z.strictObject({
  chat_id: z.string(),
  workspace_id: z.string(),
  api_key_id: z.string(),
  /** The knowledge base searched; with several, the first (knowledge_base_ids names them all). */
  knowledge_base_id: z.string().nullable(),
  knowledge_base_ids: z.array(z.string()).optional(),
  /**
   * Knowledge bases it did not search whose text reached it through its input (a stored
   * conversation, earlier responses): with those searched, its provenance, which a key must be
   * allowed whole to rate it. Absent when none (and in chats recorded before it was kept).
   */
  derived_from: z.array(z.string()).optional(),
  model: z.string(),
  stream: z.boolean(),
  finish_reason: FinishReason,
  citations: z.array(ChatCitationRecord),
  usage: z.strictObject({ prompt_tokens: z.int().min(0), completion_tokens: z.int().min(0), total_tokens: z.int().min(0) }),
  latency_ms: z.strictObject({ retrieval: z.number().min(0), first_token: z.number().min(0).nullable(), total: z.number().min(0) }),
  messages: z.array(z.strictObject({ role: ChatRole, content: z.string() })).optional(),
  answer: z.string().optional(),
  completed_at: z.iso.datetime(),
});

/**
 * A reader's verdict on an answer: thumbs up or down, with an optional comment. A chat may get
 * several (from the same key or others); each is kept, the latest is not privileged here.
 */
export const ChatFeedbackGiven = z.strictObject({
  feedback_id: z.string(),
  chat_id: z.string(),
  workspace_id: z.string(),
  api_key_id: z.string(),
  rating: FeedbackRating,
  comment: z.string().max(2000).nullable(),
  /** When the feedback was given on a conversation's item: the conversation and the item. */
  conversation_id: z.string().optional(),
  item_id: z.string().optional(),
  given_at: z.iso.datetime(),
});

export const chatEvents = { ChatCompleted, ChatFeedbackGiven } as const;
