import type { ChatMessage, ContextPassage } from '../domain/chat/messages.ts';

/** What `/v1/models` lists; each model adapter describes itself with one of these. */
export type ModelInfo = {
  id: string;
  kind: 'chat' | 'embedding' | 'rerank';
  ownedBy: string;
  /** Unix seconds, as OpenAI reports it. */
  created: number;
};

export interface Embedder {
  readonly model: ModelInfo;
  readonly dimensions: number;
  /** Whether the model can answer with fewer dimensions when asked (OpenAI's text-embedding-3 can; a hashing embedder cannot). */
  readonly shortens: boolean;
  /** `dimensions`: fewer than the model's own, only where `shortens`. */
  embed(texts: string[], options?: { dimensions?: number }): Promise<Float32Array[]>;
}

export type { ChatMessage, ContextPassage, ToolCall } from '../domain/chat/messages.ts';
import type { FinishReason } from '../../schemas/events/chat.ts';
import type { ToolCall } from '../domain/chat/messages.ts';

/**
 * OpenAI request fields (`tools`, `tool_choice`, `response_format`, `seed`, `stop`, `logprobs` …) as the
 * client sent them, for a model that passes them on to its provider; the offline model reads none.
 */
export type ProviderOptions = Readonly<Record<string, unknown>>;

export type ChatFinishReason = FinishReason;

/** A piece of a streamed tool call, as OpenAI streams it: the first piece of each call has its id and name, the rest add to its arguments. */
export type ToolCallDelta = { index: number; id?: string; type?: 'function'; function?: { name?: string; arguments?: string } };

export type ChatRequest = {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  /**
   * The passages already rendered into `messages`, given again as data: a provider model reads the
   * prompt, the offline extractive model reads these instead of parsing them back out of it.
   */
  passages?: ContextPassage[];
  /** The language the question was asked in (ISO 639-1, as the analyzer detects it): what a model that refuses by itself writes its refusal in. */
  language?: string;
  options?: ProviderOptions;
  signal?: AbortSignal;
};

export type ChatUsage = { promptTokens: number; completionTokens: number };

/** `logprobs`: the provider's, as it sent them, when the request asked for them. */
export type ChatDelta =
  | { content: string; logprobs?: unknown }
  | { toolCalls: ToolCallDelta[] }
  | { finishReason: ChatFinishReason; usage: ChatUsage };

export type ChatAnswer = { content: string; toolCalls?: ToolCall[]; logprobs?: unknown; finishReason: ChatFinishReason; usage: ChatUsage };

export interface ChatModel {
  readonly model: ModelInfo;
  /** Whether `ChatRequest.options` reach a provider; a model that cannot honour tools or structured output must not be given them. */
  readonly passesOptions: boolean;
  complete(request: ChatRequest): Promise<ChatAnswer>;
  stream(request: ChatRequest): AsyncIterable<ChatDelta>;
  /**
   * A model that answers by computation, without a provider: its answer at once, so that it can be
   * worked out where the retrieval ran (a query process), and the deltas that stream an answer
   * worked out before. Absent for a provider's model, whose answer is network time, not CPU.
   */
  readonly local?: { answer(request: ChatRequest): ChatAnswer; replay(answer: ChatAnswer, signal?: AbortSignal): AsyncIterable<ChatDelta> };
}

export type RerankResult = { index: number; score: number };

export interface Reranker {
  readonly model: ModelInfo;
  /**
   * `passages` arrive in first-stage order, best first (a reranker may use that order as a prior).
   * Returns at most `topN` results, best first; `index` points into `passages`; scores in 0..1.
   */
  rerank(query: string, passages: string[], topN: number, signal?: AbortSignal): Promise<RerankResult[]>;
}
