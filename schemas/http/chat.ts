import { AsOfField } from './as-of.ts';
import { z } from 'zod';
import { FinishReason } from '../events/chat.ts';
import { PageBox } from '../events/document.ts';
import { ChatMessageBody, OpenAiChatFields, ToolCallBody } from './chat-openai.ts';
import { KnowledgeBaseIds, oneKnowledgeBaseField, SearchFilter } from './filter.ts';

export { ChatMessageBody } from './chat-openai.ts';

/** The most messages a chat takes, a conversation's history included. */
export const MAX_CHAT_MESSAGES = 500;

/** OpenAI's request, plus `knowledge_base_id`. Sampling fields we cannot honour are accepted and ignored, as providers do. */
export const ChatCompletionBody = z
  .strictObject({
    model: z.string().min(1).max(200),
    messages: z.array(ChatMessageBody).min(1, 'needs at least one message').max(MAX_CHAT_MESSAGES),
    knowledge_base_id: z.string().min(1).max(200).optional(),
    knowledge_base_ids: KnowledgeBaseIds.optional(),
    filter: SearchFilter.optional().describe('Retrieval only searches the documents that meet it (see the search body’s filter)'),
    as_of: AsOfField.optional(),
    conversation: z
      .union([z.string().min(1).max(200), z.strictObject({ id: z.string().min(1).max(200) })])
      .optional()
      .describe('A conversation (`conv_…`, see /v1/conversations) the chat continues: its items go before `messages`, and the new messages and the answer are added to it'),
    agent_version: z.literal('draft').optional().describe('With an agent (`agt_…`) for model: talk to its draft, not its published version (write scope)'),
    stream: z.boolean().optional(),
    stream_options: z.strictObject({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() }).nullable().optional(),
    temperature: z.number().min(0, 'must be between 0 and 2').max(2, 'must be between 0 and 2').nullable().optional(),
    max_tokens: z.int().min(1).max(100_000).nullable().optional(),
    max_completion_tokens: z.int().min(1).max(100_000).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    n: z.int().min(1).max(128).nullable().optional().describe('1: more than one choice is refused (unsupported_parameter)'),
    stop: z.union([z.string(), z.array(z.string()).max(4)]).nullable().optional(),
    presence_penalty: z.number().min(-2).max(2).nullable().optional(),
    frequency_penalty: z.number().min(-2).max(2).nullable().optional(),
    seed: z.int().nullable().optional(),
    user: z.string().max(256).optional(),
    ...OpenAiChatFields,
  })
  .superRefine((body, ctx) => {
    oneKnowledgeBaseField(body, ctx);
    if (body.filter && body.knowledge_base_id === undefined && body.knowledge_base_ids === undefined) {
      ctx.addIssue({ code: 'custom', path: ['filter'], message: 'filters retrieval: name knowledge_base_id or knowledge_base_ids' });
    }
    if (!body.messages.some((m) => m.role === 'user')) ctx.addIssue({ code: 'custom', path: ['messages'], message: 'needs at least one user message' });
    body.messages.forEach((m, i) => {
      if (m.role === 'assistant' && (m.content === null || m.content === undefined) && !m.tool_calls?.length && !m.function_call) {
        ctx.addIssue({ code: 'custom', path: ['messages', i, 'content'], message: 'an assistant message needs content or tool_calls' });
      }
    });
  });
export type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;

export const CitationBody = z.object({
  index: z.int(),
  source: z.string(),
  page: z.int(),
  paragraph: z.string(),
  document_id: z.string(),
  knowledge_base_id: z.string().describe('The knowledge base the document belongs to'),
  document_version: z.int().min(1).describe('The version of the document the passage belongs to: the one that answered when it was retrieved'),
  chunk_id: z.string(),
  score: z.number(),
  heading_path: z.array(z.string()).describe('Titles of the headings the passage sits under, outermost first'),
  char_start: z
    .int()
    .describe('Start of the cited span in the text of `page` (its blocks joined by newlines, as the chunk list’s char_start counts): the quote’s start there, else the passage’s'),
  char_end: z.int().describe('End (exclusive) of the cited span in the text of `page`: the quote’s end there, else the passage’s'),
  boxes: z
    .array(PageBox)
    .describe(
      'Where the cited span sits on `page`: one box per line it covers (the passage’s lines when no quote is known), as fractions of the page width and height from its top left; `start` is the line’s offset in `paragraph`. Empty for formats without page layout (Word, text, spreadsheets …). `GET …/documents/{document_id}/pages/{page}/image?highlight={chunk_id}` draws them.',
    ),
  quote: z
    .object({ text: z.string(), start: z.int(), end: z.int() })
    .nullable()
    .optional()
    .describe('The span of `paragraph` (`paragraph.slice(start, end)`) the citing statement quotes or rests on; null when none of its sentences matches the statement (a loose paraphrase).'),
});

/** A passage the model was given, as retrieved: `index` is the marker an answer citing it writes. */
export const ContextPassageBody = CitationBody.omit({ quote: true }).extend({
  char_start: z.int().describe('Start of the passage in the text of `page` (as the chunk list’s char_start counts)'),
  char_end: z.int().describe('End (exclusive) of the passage in the text of `page`'),
  boxes: z.array(PageBox).describe('The passage’s lines on `page` (see citations’ `boxes`); empty for formats without page layout'),
});

const citationsField = z
  .array(CitationBody)
  .describe('The passages the answer cites: one per `[n]` marker it writes, `index` being n (a subset keeps its numbers: [2] alone is index 2), each with its quote. Empty when the answer cites nothing.');
const contextField = z
  .array(ContextPassageBody)
  .describe('The retrieval context: every passage the model was given, numbered [1], [2] … as its prompt numbers them, with score, source, page and chunk id, cited or not. Empty without a knowledge base or when nothing covers the question.');

/** Present when the chat names a knowledge base. */
const Grounding = z.object({
  answerable: z.boolean().optional().describe('Whether the retrieved passages cover the question; false: the answer is "not covered" and cites nothing'),
  coverage: z.number().optional().describe('The share of the question the best passage holds, 0..1 (see settings.answerability)'),
});

const Usage = z.object({ prompt_tokens: z.int(), completion_tokens: z.int(), total_tokens: z.int() });

export const ChatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.int(),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string().nullable().describe('Null when the model only calls tools'),
        refusal: z.null(),
        tool_calls: z.array(ToolCallBody).optional().describe('The functions a provider model asks to call (with `tools`); the answer then ends with `tool_calls`'),
      }),
      finish_reason: FinishReason,
      logprobs: z.record(z.string(), z.unknown()).nullable().describe('The provider’s, with `logprobs: true`; null otherwise'),
    }),
  ),
  usage: Usage,
  citations: citationsField,
  context: contextField,
  knowledge_base_id: z.string().nullable().describe('The knowledge base searched; with knowledge_base_ids, the first'),
  knowledge_base_ids: z.array(z.string()).optional().describe('With knowledge_base_ids: the knowledge bases searched'),
  ...Grounding.shape,
});

export const QuickChatResponse = z.object({
  id: z.string(),
  object: z.literal('chat.answer'),
  model: z.string(),
  content: z.string(),
  citations: citationsField,
  context: contextField,
  ...Grounding.shape,
});
