import { z } from 'zod';

/**
 * OpenAI's Chat Completions request fields beyond the basics, so that clients built for OpenAI
 * (LangChain's bindTools and withStructuredOutput, the openai SDK's helpers) are accepted as they
 * are. A provider model gets them passed on; the offline model refuses only what would change the
 * answer's contract (tools, a function to call, JSON output) and ignores the rest.
 */

const textPart = z.strictObject({ type: z.literal('text'), text: z.string() });
const refusalPart = z.strictObject({ type: z.literal('refusal'), refusal: z.string() });
const textContent = z.union([z.string(), z.array(textPart).min(1)]).describe('Text, or OpenAI content parts of type text');

export const ToolCallBody = z.strictObject({
  id: z.string().min(1).max(200),
  type: z.literal('function'),
  function: z.strictObject({ name: z.string().min(1).max(200), arguments: z.string().describe('The arguments as the model wrote them: JSON text') }),
});

const plain = (role: 'system' | 'developer' | 'user') =>
  z.strictObject({ role: z.literal(role), content: textContent, name: z.string().max(64).optional() });

/** An earlier answer: text, or (content null) the tool calls it made. */
const assistantMessage = z.strictObject({
  role: z.literal('assistant'),
  content: z.union([z.string(), z.array(z.union([textPart, refusalPart])).min(1)]).nullable().optional(),
  name: z.string().max(64).optional(),
  tool_calls: z.array(ToolCallBody).max(128).optional(),
  refusal: z.string().nullable().optional(),
  audio: z.strictObject({ id: z.string() }).nullable().optional(),
  function_call: z.strictObject({ name: z.string(), arguments: z.string() }).nullable().optional(),
});

/** The result of a tool call, answering the call of the same id; LangChain adds the tool's `name`, which OpenAI accepts. */
const toolMessage = z.strictObject({ role: z.literal('tool'), content: textContent, tool_call_id: z.string().min(1).max(200), name: z.string().max(64).optional() });

export const ChatMessageBody = z.discriminatedUnion('role', [plain('system'), plain('developer'), plain('user'), assistantMessage, toolMessage]);
export type ChatMessageBody = z.infer<typeof ChatMessageBody>;

const FunctionDefinition = z.strictObject({
  name: z.string().min(1).max(64),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional().describe('A JSON Schema object'),
  strict: z.boolean().nullable().optional(),
});

const ToolBody = z.union([
  z.strictObject({ type: z.literal('function'), function: FunctionDefinition }),
  z.strictObject({ type: z.literal('custom'), custom: z.looseObject({ name: z.string() }) }),
]);

const ToolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.enum(['function', 'custom', 'allowed_tools']) }).describe('A named function or custom tool, or allowed_tools'),
]);

const ResponseFormat = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text') }),
  z.strictObject({ type: z.literal('json_object') }),
  z.strictObject({
    type: z.literal('json_schema'),
    json_schema: z.strictObject({
      name: z.string().min(1).max(64),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);

const anyObject = z.record(z.string(), z.unknown());

export const OpenAiChatFields = {
  tools: z.array(ToolBody).max(128).optional(),
  tool_choice: ToolChoice.optional(),
  parallel_tool_calls: z.boolean().optional(),
  response_format: ResponseFormat.optional(),
  functions: z.array(FunctionDefinition).max(128).optional().describe('Deprecated by OpenAI in favour of tools'),
  function_call: z.union([z.enum(['none', 'auto']), z.strictObject({ name: z.string() })]).optional().describe('Deprecated by OpenAI in favour of tool_choice'),
  logprobs: z.boolean().nullable().optional(),
  top_logprobs: z.int().min(0).max(20).nullable().optional(),
  logit_bias: z.record(z.string(), z.number().min(-100).max(100)).nullable().optional(),
  metadata: z.record(z.string().max(64), z.string().max(512)).nullable().optional().describe('Accepted; not passed on (it labels what a provider stores)'),
  store: z.boolean().nullable().optional().describe('Accepted; not passed on: a provider must not keep the grounded prompt'),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullable().optional(),
  verbosity: z.enum(['low', 'medium', 'high']).nullable().optional(),
  service_tier: z.enum(['auto', 'default', 'flex', 'scale', 'priority']).nullable().optional(),
  modalities: z.array(z.enum(['text', 'audio'])).nullable().optional().describe('Text only: `audio` is refused'),
  audio: anyObject.nullable().optional().describe('Refused: answers are text'),
  prediction: anyObject.nullable().optional(),
  prompt_cache_key: z.string().nullable().optional(),
  prompt_cache_retention: z.enum(['in_memory', '24h']).nullable().optional(),
  prompt_cache_options: anyObject.optional(),
  safety_identifier: z.string().max(64).nullable().optional(),
  web_search_options: anyObject.optional(),
  moderation: anyObject.nullable().optional(),
};

/** The fields a provider model gets as the client sent them; `metadata` and `store` stay here (see above), `n` and audio are refused. */
export const PASSED_TO_PROVIDER = [
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'functions',
  'function_call',
  'logprobs',
  'top_logprobs',
  'logit_bias',
  'seed',
  'stop',
  'top_p',
  'presence_penalty',
  'frequency_penalty',
  'reasoning_effort',
  'verbosity',
  'service_tier',
  'prediction',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'prompt_cache_options',
  'web_search_options',
  'moderation',
] as const;
