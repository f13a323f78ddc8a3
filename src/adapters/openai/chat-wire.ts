import type OpenAI from 'openai';
import type { ChatFinishReason, ChatMessage, ChatRequest, ToolCall, ToolCallDelta } from '../../ports/models.ts';

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** Our conversation in OpenAI's wire format: an assistant turn keeps its tool calls (content null when it said nothing), a tool turn its call's id. */
export function wireMessages(messages: readonly ChatMessage[]): WireMessage[] {
  return messages.map((m): WireMessage => {
    if (m.role === 'tool') return { role: 'tool', content: m.content, tool_call_id: m.toolCallId ?? '' };
    if (m.role === 'assistant' && m.toolCalls?.length) return { role: 'assistant', content: m.content || null, tool_calls: m.toolCalls };
    return { role: m.role, content: m.content };
  });
}

/**
 * The request body without `stream`: the client's own options first (tools, response_format, seed …), so that
 * the model, our grounded messages and the limits we resolved are what the provider gets.
 */
export function wireRequest(model: string, { messages, temperature, maxTokens, options }: ChatRequest) {
  return {
    ...options,
    model,
    messages: wireMessages(messages),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
  };
}

/** OpenAI's `content_filter` and the deprecated `function_call` end an answer too; ours has three endings. */
export function finishReasonOf(reason: string | null | undefined): ChatFinishReason {
  if (reason === 'length') return 'length';
  return reason === 'tool_calls' ? 'tool_calls' : 'stop';
}

/** The function calls of a provider's message; a custom (free-text) tool call has no place in our shape and is left out. */
export function toolCallsOf(message: OpenAI.Chat.Completions.ChatCompletionMessage | undefined): ToolCall[] | undefined {
  const calls = message?.tool_calls?.flatMap((c) => (c.type === 'function' ? [{ id: c.id, type: 'function' as const, function: { name: c.function.name, arguments: c.function.arguments } }] : []));
  return calls?.length ? calls : undefined;
}

/** A streamed chunk's tool-call pieces, as they came. */
export function toolCallDeltasOf(delta: OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta | undefined): ToolCallDelta[] | undefined {
  const calls = delta?.tool_calls?.map(({ index, id, type, function: fn }) => ({
    index,
    ...(id && { id }),
    ...(type && { type }),
    ...(fn && { function: { ...(fn.name !== undefined && { name: fn.name }), ...(fn.arguments !== undefined && { arguments: fn.arguments }) } }),
  }));
  return calls?.length ? calls : undefined;
}

/**
 * OpenAI's structured output (`response_format: {type: "json_schema", json_schema: {schema}}`) in
 * the older form llama.cpp's Python server (llama-cpp-python) and Anyscale take instead:
 * `{type: "json_object", schema}`, which they enforce with a grammar. Undefined when the request
 * asks for no JSON schema. (llama-cpp-python refuses `json_schema` with a 422; Ollama, vLLM and
 * llama.cpp's own C++ server take it.)
 */
export function asJsonObjectFormat(request: ChatRequest): ChatRequest | undefined {
  const format = request.options?.response_format as { type?: unknown; json_schema?: { schema?: unknown } } | undefined;
  if (format?.type !== 'json_schema') return undefined;
  const schema = format.json_schema?.schema;
  return { ...request, options: { ...request.options, response_format: { type: 'json_object', ...(schema !== undefined && { schema }) } } };
}
