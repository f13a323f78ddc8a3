import { APIError } from 'openai';
import type OpenAI from 'openai';
import { countTokens } from '../../domain/document/tokens.ts';
import type { ChatAnswer, ChatDelta, ChatFinishReason, ChatMessage, ChatModel, ChatRequest, ChatUsage } from '../../ports/models.ts';
import { asJsonObjectFormat, finishReasonOf, toolCallDeltasOf, toolCallsOf, wireRequest } from './chat-wire.ts';
import { type ProviderCall, providerBadResponse, providerFailure, providerTimeout } from './provider-errors.ts';

export type OpenAiChatModelOptions = {
  client: OpenAI;
  model: string;
  created?: number;
  /**
   * Longest silence between two streamed chunks (and before the first) before the stream counts
   * as stalled. The client's own timeout stops at the response headers, which a streaming
   * provider sends before it has generated anything. Defaults to the client's timeout.
   */
  idleTimeoutMs?: number;
};

type ProviderUsage = { prompt_tokens?: number; completion_tokens?: number } | null | undefined;

/**
 * Any OpenAI-compatible `/v1/chat/completions` (OpenAI, vLLM, Ollama, LiteLLM …). The client retries
 * 429, 5xx and timeouts before an answer starts; failures surface as our API errors, and the
 * caller's abort as the abort it is.
 */
export function createOpenAiChatModel({ client, model, created = 0, idleTimeoutMs = client.timeout }: OpenAiChatModelOptions): ChatModel {
  const call: ProviderCall = { provider: 'chat', model, apiKey: client.apiKey };
  /** Learned from the provider's first refusal: it takes a JSON schema only as `{type: "json_object", schema}` (see asJsonObjectFormat). */
  let schemaAsJsonObject = false;
  const body = (request: ChatRequest) => wireRequest(model, (schemaAsJsonObject && asJsonObjectFormat(request)) || request);

  /**
   * Sends the request; a provider refusing it while it asks for a JSON schema is asked once more
   * in the older form, which is then used for this model from there on. Both happen before any of
   * the answer exists, so nothing is repeated to our caller.
   */
  async function send<T>(request: ChatRequest, call: (wire: ReturnType<typeof body>) => Promise<T>): Promise<T> {
    try {
      return await call(body(request));
    } catch (error) {
      const older = asJsonObjectFormat(request);
      if (schemaAsJsonObject || !older || !refusesJsonSchema(error)) throw error;
      const answer = await call(wireRequest(model, older));
      schemaAsJsonObject = true;
      return answer;
    }
  }

  async function openStream(request: ChatRequest, signal: AbortSignal): Promise<AsyncIterator<Chunk>> {
    // Retries (the client's maxRetries) happen only inside this call, before the first byte of
    // the answer: once a delta has reached our caller, repeating the request would repeat text.
    const stream = await send(request, (wire) => client.chat.completions.create({ ...wire, stream: true, stream_options: { include_usage: true } }, { signal }));
    return stream[Symbol.asyncIterator]();
  }

  const chatModel: ChatModel = {
    model: { id: model, kind: 'chat', ownedBy: 'openai-compatible', created },
    passesOptions: true,

    async complete(request) {
      try {
        const response = await send(request, (wire) => client.chat.completions.create({ ...wire, stream: false }, { signal: request.signal }));
        const choice = response.choices?.[0];
        if (!choice) throw providerBadResponse('chat');
        const content = choice.message?.content ?? '';
        const toolCalls = toolCallsOf(choice.message);
        return {
          content,
          ...(toolCalls && { toolCalls }),
          ...(choice.logprobs && { logprobs: choice.logprobs }),
          finishReason: finishReasonOf(choice.finish_reason),
          usage: usageOf(response.usage) ?? estimateUsage(request.messages, content),
        };
      } catch (error) {
        throw providerFailure(error, { ...call, signal: request.signal });
      }
    },

    async *stream(request): AsyncGenerator<ChatDelta> {
      // Our own controller, so that leaving early, a stall and the caller's abort all cancel the upstream request.
      const upstream = new AbortController();
      const forwardAbort = () => upstream.abort(request.signal?.reason);
      request.signal?.addEventListener('abort', forwardAbort, { once: true });
      if (request.signal?.aborted) forwardAbort();
      let stalled = false;
      const stall = () => {
        stalled = true;
        upstream.abort();
      };
      let chunks: AsyncIterator<Chunk> | undefined;
      const fail = (error: unknown) => (stalled && !request.signal?.aborted ? providerTimeout('chat') : providerFailure(error, { ...call, signal: request.signal }));
      try {
        try {
          chunks = await openStream(request, upstream.signal);
        } catch (error) {
          throw fail(error);
        }
        const answer: Answer = { text: '' };
        let received = 0;
        for (;;) {
          let next: IteratorResult<Chunk>;
          try {
            next = await nextChunk(chunks, idleTimeoutMs, stall);
          } catch (error) {
            throw fail(error);
          }
          if (next.done) break;
          received++;
          const { content, logprobs, toolCalls } = takeChunk(answer, next.value);
          if (content) yield { content, ...(logprobs ? { logprobs } : {}) };
          if (toolCalls) yield { toolCalls };
        }
        // The SDK ends the iteration quietly when its request is aborted, so an abort shows only here.
        if (request.signal?.aborted || stalled) throw fail(new Error('stream aborted'));
        // Every OpenAI-compatible stream ends its answer with a finish reason; one that stops before it was cut off
        // (llama-cpp-python's server ends a stream so when another request comes in, unless run with --interrupt_requests false),
        // and a cut answer passed on as complete would be recorded as one.
        // An empty stream (200, not one chunk) is how llama-cpp-python's server answers a prompt longer than its context
        // window; asked without streaming it says why (400 context_length_exceeded). Nothing has reached our caller yet,
        // so asking again repeats nothing; should it answer after all, that answer is passed on.
        if (received === 0) return yield* asDeltas(await chatModel.complete(request));
        if (answer.finishReason === undefined) throw providerBadResponse('chat', 'its stream ended before the answer did (no finish reason)');
        yield { finishReason: answer.finishReason, usage: answer.usage ?? estimateUsage(request.messages, answer.text) };
      } finally {
        request.signal?.removeEventListener('abort', forwardAbort);
        upstream.abort();
        await chunks?.return?.().catch(() => {});
      }
    },
  };
  return chatModel;
}

/** A blocking answer as the deltas a stream of it would have brought. */
async function* asDeltas(whole: ChatAnswer): AsyncGenerator<ChatDelta> {
  if (whole.content) yield { content: whole.content };
  if (whole.toolCalls) yield { toolCalls: whole.toolCalls.map((c, index) => ({ index, ...c })) };
  yield { finishReason: whole.finishReason, usage: whole.usage };
}

/**
 * A refusal of the request: 400 or 422, or a 500 that names the response format, which is how
 * llama-cpp-python answers a `json_schema` it does not know (its validation error, caught in its
 * handler: "Input should be 'text' or 'json_object'"). The SDK has retried a 500 by then.
 */
function refusesJsonSchema(error: unknown): boolean {
  if (!(error instanceof APIError)) return false;
  if (error.status === 400 || error.status === 422) return true;
  return error.status === 500 && /response_format|json_object|json_schema/.test(error.message);
}

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
/** The streamed answer so far. */
type Answer = { text: string; finishReason?: ChatFinishReason; usage?: ChatUsage };

/**
 * The next chunk, with `onStall` called if none comes within `idleTimeoutMs`. The clock runs only
 * while we wait on the provider, not while our caller is busy with a delta.
 */
async function nextChunk(chunks: AsyncIterator<Chunk>, idleTimeoutMs: number, onStall: () => void): Promise<IteratorResult<Chunk>> {
  const idle = setTimeout(onStall, idleTimeoutMs);
  try {
    return await chunks.next();
  } finally {
    clearTimeout(idle);
  }
}

/** Adds a chunk's text, usage and finish reason to the answer; returns what it brings to pass on. */
function takeChunk(answer: Answer, chunk: Chunk) {
  answer.usage = usageOf(chunk.usage) ?? answer.usage;
  const choice = chunk.choices?.[0];
  const content = choice?.delta?.content;
  if (content) answer.text += content;
  if (choice?.finish_reason) answer.finishReason = finishReasonOf(choice.finish_reason);
  return { content, logprobs: choice?.logprobs, toolCalls: toolCallDeltasOf(choice?.delta) };
}

function usageOf(usage: ProviderUsage): ChatUsage | undefined {
  if (!usage || typeof usage.prompt_tokens !== 'number' || typeof usage.completion_tokens !== 'number') return undefined;
  return { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
}

/** Some providers (older Ollama, some proxies) send no usage; an estimate beats reporting zero. */
function estimateUsage(messages: ChatMessage[], completion: string): ChatUsage {
  return { promptTokens: messages.reduce((sum, m) => sum + countTokens(m.content), 0), completionTokens: countTokens(completion) };
}
