import { z } from 'zod';
import { ChatRole } from './chat.ts';

const StoredMessage = z.strictObject({
  role: ChatRole,
  content: z.string(),
  tool_calls: z.array(z.strictObject({ id: z.string(), type: z.literal('function'), function: z.strictObject({ name: z.string(), arguments: z.string() }) })).optional(),
  tool_call_id: z.string().optional(),
});

/**
 * A Responses API answer the client asked to keep (`store`, on by default as at OpenAI): unlike a
 * chat's record, it holds the conversation and the answer, since reading it back and continuing it
 * (`previous_response_id`) is what storing it is for. Deleting it appends ResponseDeleted.
 */
export const ResponseStored = z.strictObject({
  response_id: z.string(),
  workspace_id: z.string(),
  api_key_id: z.string(),
  /** The knowledge bases its content came from (its file_search, and the earlier responses it continues): a key must read them all to read it back. */
  knowledge_base_ids: z.array(z.string()),
  /** The conversation so far, this request's input last, as chat takes it (without the retrieved passages). */
  conversation: z.array(StoredMessage),
  /** The request's input items as sent (a string input becomes one user message). */
  input_items: z.array(z.record(z.string(), z.unknown())),
  /** The response object as it was returned. */
  response: z.record(z.string(), z.unknown()),
  stored_at: z.iso.datetime(),
});

export const ResponseDeleted = z.strictObject({ response_id: z.string(), deleted_at: z.iso.datetime() });

export const responseEvents = { ResponseStored, ResponseDeleted } as const;
