import { createHashingEmbedder } from '../adapters/local/hashing-embedder.ts';
import { createExtractiveChatModel } from '../adapters/local/extractive-chat-model.ts';
import { createOfflineReranker } from '../adapters/local/offline-reranker.ts';
import { createOpenAiChatModel } from '../adapters/openai/chat-model.ts';
import { createOpenAiClient } from '../adapters/openai/client.ts';
import { createOpenAiEmbedder } from '../adapters/openai/embedder.ts';
import { createApiReranker } from '../adapters/rerank-api/reranker.ts';
import type { Config } from '../config.ts';
import type { Analyzer } from '../ports/analyzer.ts';
import type { ChatModel, Embedder, Reranker } from '../ports/models.ts';

/** The offline models always (listed first); a provider's models when configured. */
export function createModels(config: Config, analyzer: Analyzer) {
  const offlineEmbedder = createHashingEmbedder({ analyzer });
  const embedders = new Map<string, Embedder>([[offlineEmbedder.model.id, offlineEmbedder]]);
  const extractive = createExtractiveChatModel({ analyzer });
  const chatModels = new Map<string, ChatModel>([[extractive.model.id, extractive]]);
  const offlineReranker = createOfflineReranker({ analyzer });
  const rerankers = new Map<string, Reranker>([[offlineReranker.model.id, offlineReranker]]);
  if (config.openai) {
    const { apiKey, baseUrl, maxRetries, timeoutMs, embeddingModels, chatModels: chatIds } = config.openai;
    const client = createOpenAiClient({ apiKey, baseURL: baseUrl, maxRetries, timeoutMs });
    for (const { id, dimensions } of embeddingModels) embedders.set(id, createOpenAiEmbedder({ client, model: id, dimensions }));
    for (const id of chatIds) chatModels.set(id, createOpenAiChatModel({ client, model: id }));
  }
  if (config.rerank) {
    const { baseUrl, apiKey, models, maxRetries, timeoutMs } = config.rerank;
    for (const id of models) rerankers.set(id, createApiReranker({ baseUrl, apiKey, model: id, maxRetries, timeoutMs }));
  }
  return { embedders, chatModels, rerankers, defaultReranker: offlineReranker.model.id };
}
