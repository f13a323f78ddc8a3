// Provider models' clients (the openai package among them) are imported only when a provider is
// configured: composition/models.ts loads this module on demand.
import { createOpenAiChatModel } from '../adapters/openai/chat-model.ts';
import { createOpenAiClient } from '../adapters/openai/client.ts';
import { createOpenAiEmbedder } from '../adapters/openai/embedder.ts';
import { createApiReranker } from '../adapters/rerank-api/reranker.ts';
import type { Config } from '../config.ts';
import type { ChatModel, Embedder, Reranker } from '../ports/models.ts';

type ModelMaps = { embedders: Map<string, Embedder>; chatModels: Map<string, ChatModel>; rerankers: Map<string, Reranker> };

/** Adds the configured provider's chat and embedding models and the rerank API's models. */
export function addProviderModels(config: Config, { embedders, chatModels, rerankers }: ModelMaps) {
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
}
