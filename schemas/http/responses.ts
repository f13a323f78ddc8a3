import { AsOfField } from './as-of.ts';
import { z } from 'zod';
import { OpenAiChatFields } from './chat-openai.ts';
import { SortOrder } from './common.ts';
import { SearchFilter } from './filter.ts';

/**
 * OpenAI's Responses API request (`POST /v1/responses`), which the openai SDK's `responses.create`
 * and the Vercel AI SDK's default OpenAI provider send. A vector store here is a knowledge base:
 * `file_search` over `vector_store_ids` retrieves from those knowledge bases as chat does.
 */

const anyObject = z.record(z.string(), z.unknown());

const inputText = z.strictObject({ type: z.literal('input_text'), text: z.string() });
const outputText = z.strictObject({ type: z.literal('output_text'), text: z.string(), annotations: z.array(anyObject).optional(), logprobs: z.array(anyObject).optional() });
const refusal = z.strictObject({ type: z.literal('refusal'), refusal: z.string() });

const messageItem = z.strictObject({
  type: z.literal('message').optional(),
  id: z.string().optional(),
  status: z.string().optional(),
  role: z.enum(['user', 'system', 'developer', 'assistant']),
  content: z.union([z.string(), z.array(z.union([inputText, outputText, refusal])).min(1)]).describe('Text, or input_text parts (output_text parts for an earlier answer)'),
});

const functionCallItem = z.strictObject({
  type: z.literal('function_call'),
  id: z.string().optional(),
  status: z.string().optional(),
  call_id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  arguments: z.string(),
});

const functionCallOutputItem = z.strictObject({
  type: z.literal('function_call_output'),
  id: z.string().optional(),
  status: z.string().optional(),
  call_id: z.string().min(1).max(200),
  output: z.union([z.string(), z.array(inputText).min(1)]),
});

/** An earlier search, as a client sends the output items back: it shapes nothing here. */
const fileSearchCallItem = z.looseObject({ type: z.literal('file_search_call'), id: z.string() });
const itemReference = z.strictObject({ type: z.literal('item_reference'), id: z.string() });

export const ResponseInputItem = z.union([messageItem, functionCallItem, functionCallOutputItem, fileSearchCallItem, itemReference]);
export type ResponseInputItem = z.infer<typeof ResponseInputItem>;

const FileSearchTool = z.strictObject({
  type: z.literal('file_search'),
  vector_store_ids: z.array(z.string().min(1).max(200)).min(1).max(10).describe('Knowledge base ids: a vector store here is a knowledge base'),
  max_num_results: z.int().min(1).max(50).optional().describe('Accepted; retrieval keeps what fits the context'),
  filters: SearchFilter.nullable().optional().describe('OpenAI’s attribute filter, over document metadata'),
  as_of: AsOfField.optional(),
  ranking_options: z
    .strictObject({ ranker: z.string().optional(), score_threshold: z.number().min(0).max(1).optional(), hybrid_search: anyObject.optional() })
    .optional()
    .describe('Accepted; the knowledge base’s settings rank'),
});

const FunctionTool = z.strictObject({
  type: z.literal('function'),
  name: z.string().min(1).max(64),
  description: z.string().nullable().optional(),
  parameters: anyObject.nullable().optional(),
  strict: z.boolean().nullable().optional(),
});

// By `type`: a bad file_search tool's error names its field (tools.0.filters), not the whole tool.
export const ResponseTool = z.discriminatedUnion('type', [FileSearchTool, FunctionTool]);
export type ResponseTool = z.infer<typeof ResponseTool>;

const TextFormat = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text') }),
  z.strictObject({ type: z.literal('json_object') }),
  z.strictObject({
    type: z.literal('json_schema'),
    name: z.string().min(1).max(64),
    description: z.string().optional(),
    schema: anyObject,
    strict: z.boolean().nullable().optional(),
  }),
]);

export const ResponseCreateBody = z.strictObject({
  model: z.string().min(1).max(200),
  input: z.union([z.string().min(1), z.array(ResponseInputItem).min(1).max(500)]),
  instructions: z.string().nullable().optional(),
  tools: z.array(ResponseTool).max(128).optional(),
  tool_choice: z
    .union([z.enum(['none', 'auto', 'required']), z.looseObject({ type: z.string() })])
    .optional()
    .describe('A function the model must call ({type: "function", name}) or a tool type ({type: "file_search"})'),
  previous_response_id: z.string().nullable().optional().describe('Continues that stored response’s conversation'),
  store: z.boolean().nullable().optional().describe('Default true: the response can be read back and continued'),
  stream: z.boolean().nullable().optional(),
  stream_options: z.strictObject({ include_obfuscation: z.boolean().optional() }).nullable().optional(),
  background: z.boolean().nullable().optional().describe('Only false: answers are not queued'),
  conversation: z
    .union([z.string().min(1).max(200), z.strictObject({ id: z.string().min(1).max(200) })])
    .nullable()
    .optional()
    .describe('A conversation (`conv_…`, see /v1/conversations) the response continues: its items go before the input, and the input and the answer are added to it; not with previous_response_id'),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  top_logprobs: z.int().min(0).max(20).nullable().optional(),
  max_output_tokens: z.int().min(1).max(100_000).nullable().optional(),
  max_tool_calls: z.int().min(1).nullable().optional(),
  metadata: z.record(z.string().max(64), z.string().max(512)).nullable().optional(),
  text: z.strictObject({ format: TextFormat.optional(), verbosity: z.enum(['low', 'medium', 'high']).nullable().optional() }).nullable().optional(),
  include: z.array(z.string()).nullable().optional().describe('`file_search_call.results` adds the retrieved passages to the file_search_call'),
  truncation: z.enum(['auto', 'disabled']).nullable().optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  user: z.string().max(256).optional(),
  reasoning: z.strictObject({ effort: OpenAiChatFields.reasoning_effort, summary: z.string().nullable().optional(), generate_summary: z.string().nullable().optional() }).nullable().optional(),
  service_tier: OpenAiChatFields.service_tier,
  safety_identifier: OpenAiChatFields.safety_identifier,
  prompt_cache_key: OpenAiChatFields.prompt_cache_key,
  prompt_cache_retention: OpenAiChatFields.prompt_cache_retention,
  prompt_cache_options: anyObject.optional(),
  prompt: anyObject.nullable().optional().describe('Refused: there are no stored prompts'),
});
export type ResponseCreateBody = z.infer<typeof ResponseCreateBody>;

const Annotation = z.object({
  type: z.literal('file_citation'),
  index: z.int(),
  file_id: z.string(),
  filename: z.string(),
  document_version: z.int().min(1).describe('The version of the cited document that answered (a KBQA field)'),
});

const OutputItem = z.union([
  z.object({
    type: z.literal('file_search_call'),
    id: z.string(),
    status: z.literal('completed'),
    queries: z.array(z.string()),
    results: z.array(z.object({ file_id: z.string(), filename: z.string(), score: z.number(), text: z.string(), attributes: anyObject })).nullable(),
  }),
  z.object({
    type: z.literal('message'),
    id: z.string(),
    role: z.literal('assistant'),
    status: z.literal('completed'),
    content: z.array(z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(Annotation).describe('One per `[n]` marker, at its offset; file_id is the document id, filename its name'), logprobs: z.array(anyObject) })),
  }),
  z.object({ type: z.literal('function_call'), id: z.string(), call_id: z.string(), name: z.string(), arguments: z.string(), status: z.literal('completed') }),
]);

export const ResponseObject = z
  .object({
    id: z.string(),
    object: z.literal('response'),
    created_at: z.int(),
    status: z.enum(['completed', 'incomplete']),
    model: z.string(),
    output: z.array(OutputItem),
    usage: z
      .object({
        input_tokens: z.int(),
        input_tokens_details: z.object({ cached_tokens: z.int() }),
        output_tokens: z.int(),
        output_tokens_details: z.object({ reasoning_tokens: z.int() }),
        total_tokens: z.int(),
      })
      .nullable(),
    previous_response_id: z.string().nullable(),
    instructions: z.string().nullable(),
    tools: z.array(anyObject),
    store: z.boolean(),
    citations: z.array(anyObject).describe('As chat’s: each passage the answer cites, with its page, boxes and quote (empty while in progress)'),
    context: z.array(anyObject).describe('As chat’s: every passage the model was given, cited or not'),
  })
  .loose();

export const DeletedResponse = z.object({ id: z.string(), object: z.literal('response'), deleted: z.literal(true) });
/** OpenAI's paging of a response's input items: newest first unless `order=asc`. */
export const InputItemsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().min(1).max(200).optional(),
  before: z.string().min(1).max(200).optional(),
  order: SortOrder.default('desc'),
  include: z.union([z.string(), z.array(z.string())]).optional().describe('Accepted: input items carry everything already'),
});
export type InputItemsQuery = z.infer<typeof InputItemsQuery>;

export const ResponseInputItems = z.object({ object: z.literal('list'), data: z.array(anyObject), first_id: z.string().nullable(), last_id: z.string().nullable(), has_more: z.boolean() });
