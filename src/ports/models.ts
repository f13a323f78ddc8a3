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
  embed(texts: string[]): Promise<Float32Array[]>;
}

export type { ChatMessage, ContextPassage } from '../domain/chat/messages.ts';

export type ChatRequest = {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  /**
   * The passages already rendered into `messages`, given again as data: a provider model reads the
   * prompt, the offline extractive model reads these instead of parsing them back out of it.
   */
  passages?: ContextPassage[];
  signal?: AbortSignal;
};

export type ChatUsage = { promptTokens: number; completionTokens: number };

export type ChatDelta = { content: string } | { finishReason: 'stop' | 'length'; usage: ChatUsage };

export interface ChatModel {
  readonly model: ModelInfo;
  complete(request: ChatRequest): Promise<{ content: string; finishReason: 'stop' | 'length'; usage: ChatUsage }>;
  stream(request: ChatRequest): AsyncIterable<ChatDelta>;
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
