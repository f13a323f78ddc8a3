import { z } from 'zod';

/** What the landing page sends: chat-completions messages (text only), and the access code once asked for it. */
export const LandingChatBody = z.strictObject({
  messages: z
    .array(z.strictObject({ role: z.enum(['user', 'assistant']), content: z.string().min(1).max(8000) }))
    .min(1)
    .max(40)
    .refine((m) => m.at(-1)?.role === 'user', 'the last message is the visitor’s question'),
  stream: z.boolean().optional(),
  access_code: z.string().min(1).max(200).optional(),
});

export const PublicCitation = z.object({
  index: z.int(),
  source: z.string(),
  page: z.int(),
  paragraph: z.string(),
  quote: z.string().nullable(),
  document_version: z.int().min(1).describe('The version of the document the passage belongs to'),
  image_url: z.string().nullable().describe('`/a/{slug}/pages/{document_id}/{page}?char_start=&char_end=`; null for formats without page images'),
});

export const LandingChatCompletion = z.object({
  id: z.string().describe('The answer’s message id, for feedback'),
  object: z.literal('chat.completion'),
  created: z.int(),
  model: z.string(),
  choices: z.array(z.object({ index: z.int(), message: z.object({ role: z.literal('assistant'), content: z.string() }), finish_reason: z.string() })),
  citations: z.array(PublicCitation),
});

export const LandingFeedbackBody = z.strictObject({
  message_id: z.string().min(1).max(200),
  rating: z.enum(['up', 'down']),
  comment: z.string().max(2000).optional(),
});

export const LandingHistory = z.object({
  messages: z.array(z.object({ id: z.string(), role: z.enum(['user', 'assistant']), content: z.string(), citations: z.array(PublicCitation).optional() })),
});

export const LandingPageImageQuery = z.strictObject({
  char_start: z.coerce.number().int().min(0).optional(),
  char_end: z.coerce.number().int().min(0).optional(),
});
