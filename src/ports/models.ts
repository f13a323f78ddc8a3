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

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

export type ChatRequest = { messages: ChatMessage[]; temperature?: number; maxTokens?: number; signal?: AbortSignal };

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
  /** Scores in 0..1, best first. */
  rerank(query: string, passages: string[], topN: number): Promise<RerankResult[]>;
}
