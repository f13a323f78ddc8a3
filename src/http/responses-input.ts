import type { ChatInput } from '../app/services/chat.ts';
import { ApiError } from '../ports/api-error.ts';
import type { ChatMessage } from '../ports/models.ts';
import { retrievalFilter } from './retrieval-filter.ts';
import { asOfOf } from '../app/services/as-of.ts';
import type { ResponseCreateBody, ResponseInputItem, ResponseTool } from '../../schemas/http/responses.ts';

/** A Responses request as chat takes it: the conversation of its input, the knowledge bases of its file_search tools, provider options in chat's names. */
export type ResponseRequest = {
  /** This request's input as messages; the stored conversation of previous_response_id goes before them. */
  input: ChatMessage[];
  chat: Omit<ChatInput, 'messages'>;
  instructions: string | null;
  previousResponseId: string | null;
  store: boolean;
  includeResults: boolean;
};

export function toResponseRequest(body: ResponseCreateBody): ResponseRequest {
  refuseUnsupported(body);
  const tools = body.tools ?? [];
  const searches = tools.filter((t) => t.type === 'file_search');
  const kbIds = [...new Set(searches.flatMap((t) => t.vector_store_ids))];
  const filter = searches.find((t) => t.filters)?.filters ?? undefined;
  // Beside the knowledge bases it names, as filters are: the first file_search tool that gives one.
  const asOf = searches.find((t) => t.as_of !== undefined)?.as_of;
  return {
    input: typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : messagesOf(body.input),
    chat: {
      model: body.model,
      knowledgeBaseIds: kbIds.length > 0 ? kbIds : undefined,
      filter: retrievalFilter(filter),
      ...(asOf !== undefined && { asOf: asOfOf(asOf) }),
      temperature: body.temperature ?? undefined,
      maxTokens: body.max_output_tokens ?? undefined,
      stream: body.stream ?? false,
      options: providerOptions(body, tools),
      ...(body.conversation && { conversationId: typeof body.conversation === 'string' ? body.conversation : body.conversation.id }),
    },
    instructions: body.instructions ?? null,
    previousResponseId: body.previous_response_id ?? null,
    store: body.store ?? true,
    includeResults: body.include?.includes('file_search_call.results') ?? false,
  };
}

/** The input items as chat messages: a function call joins the assistant turn before it, as chat's tool_calls do. */
export function messagesOf(items: readonly ResponseInputItem[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const item of items) {
    if (!('type' in item) || item.type === undefined || item.type === 'message') {
      const m = item as Extract<ResponseInputItem, { role: string }>;
      messages.push({ role: m.role === 'developer' ? 'system' : m.role, content: textOf(m.content) });
    } else if (item.type === 'function_call') {
      const call = { id: item.call_id, type: 'function' as const, function: { name: item.name, arguments: item.arguments } };
      const last = messages.at(-1);
      if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
      else messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    } else if (item.type === 'function_call_output') {
      messages.push({ role: 'tool', content: typeof item.output === 'string' ? item.output : item.output.map((p) => p.text).join('\n'), toolCallId: item.call_id });
    }
    // An earlier file_search_call or an item reference adds nothing: the search runs again on this turn's question.
  }
  return messages;
}

/**
 * The input with each item_reference replaced by the output item it names (an earlier answer or
 * function call, as the Vercel AI SDK sends them back when responses are stored); `find` reads the
 * stored item, or throws when the key cannot. An earlier search adds nothing and is dropped.
 */
export async function resolveReferences(input: ResponseCreateBody['input'], find: (id: string) => Promise<Record<string, unknown>>): Promise<ResponseCreateBody['input']> {
  if (typeof input === 'string' || !input.some((i) => 'type' in i && i.type === 'item_reference')) return input;
  const resolved: ResponseInputItem[] = [];
  for (const item of input) {
    if (!('type' in item) || item.type !== 'item_reference') {
      resolved.push(item);
      continue;
    }
    const found = await find(item.id);
    if (found.type === 'message') {
      const content = (found.content as { text: string }[]).map((p) => ({ type: 'output_text' as const, text: p.text }));
      resolved.push({ type: 'message', role: 'assistant', id: item.id, content: content.length > 0 ? content : [{ type: 'output_text', text: '' }] });
    } else if (found.type === 'function_call') {
      resolved.push({ type: 'function_call', id: item.id, call_id: String(found.call_id), name: String(found.name), arguments: String(found.arguments) });
    }
  }
  return resolved;
}

/** An input item as GET …/input_items lists it: with an id, and a message with its type and its text as content parts. */
export function listedItem(item: ResponseInputItem, id: string): Record<string, unknown> {
  if ('type' in item && item.type !== undefined && item.type !== 'message') return { id, ...item };
  const m = item as Extract<ResponseInputItem, { role: string }>;
  const content = typeof m.content === 'string' ? [{ type: m.role === 'assistant' ? 'output_text' : 'input_text', text: m.content }] : m.content;
  return { id: m.id ?? id, type: 'message', role: m.role, content, status: m.status ?? 'completed' };
}

function textOf(content: Extract<ResponseInputItem, { role: string }>['content']): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'refusal' ? p.refusal : p.text)).join('\n');
}

/** Chat's names for what a provider model gets: function tools in chat's shape, text.format as response_format. */
function providerOptions(body: ResponseCreateBody, tools: readonly ResponseTool[]): Record<string, unknown> {
  const functions = tools.flatMap((t) =>
    t.type === 'function' ? [{ type: 'function', function: { name: t.name, ...(t.description && { description: t.description }), ...(t.parameters && { parameters: t.parameters }), ...(t.strict != null && { strict: t.strict }) } }] : [],
  );
  const format = body.text?.format;
  const options: Record<string, unknown> = {
    tools: functions.length > 0 ? functions : undefined,
    tool_choice: toolChoice(body.tool_choice),
    parallel_tool_calls: functions.length > 0 ? (body.parallel_tool_calls ?? undefined) : undefined,
    response_format:
      format?.type === 'json_schema' ? { type: 'json_schema', json_schema: { name: format.name, description: format.description, schema: format.schema, strict: format.strict } } : format,
    top_p: body.top_p ?? undefined,
    logprobs: body.top_logprobs ? true : undefined,
    top_logprobs: body.top_logprobs ?? undefined,
    reasoning_effort: body.reasoning?.effort ?? undefined,
    verbosity: body.text?.verbosity ?? undefined,
    service_tier: body.service_tier ?? undefined,
    user: body.user,
    safety_identifier: body.safety_identifier ?? undefined,
    prompt_cache_key: body.prompt_cache_key ?? undefined,
    prompt_cache_retention: body.prompt_cache_retention ?? undefined,
  };
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

/** A named function becomes chat's {type, function: {name}}; choosing file_search asks for nothing more, since retrieval always runs. */
function toolChoice(choice: ResponseCreateBody['tool_choice']): unknown {
  if (choice === undefined || typeof choice === 'string') return choice;
  if (choice.type === 'function') return { type: 'function', function: { name: choice.name } };
  if (choice.type === 'file_search') return undefined;
  return choice;
}

/** Chat's refusal of JSON output names `response_format`; a Responses client sent it as `text.format`. */
export function inResponsesTerms(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.param !== 'response_format') return error;
  return new ApiError(error.status, error.type, error.code, error.message.replaceAll('response_format', 'text.format'), { param: 'text.format', headers: error.headers });
}

function refuseUnsupported(body: ResponseCreateBody) {
  const unsupported = (param: string, message: string) => new ApiError(400, 'invalid_request_error', 'unsupported_parameter', `${param}: ${message}`, { param });
  if (body.conversation && body.previous_response_id) {
    throw new ApiError(400, 'invalid_request_error', 'invalid_value', 'conversation: continue either a conversation or a previous response, not both.', { param: 'conversation' });
  }
  if (body.background) throw unsupported('background', 'answers are not queued; send it without background.');
  if (body.prompt) throw unsupported('prompt', 'there are no stored prompts; send the instructions and input.');
  if (typeof body.input !== 'string' && !messagesOf(body.input).some((m) => m.role === 'user')) {
    if (!body.previous_response_id) throw new ApiError(400, 'invalid_request_error', 'invalid_value', 'input: needs at least one user message', { param: 'input' });
  }
}
