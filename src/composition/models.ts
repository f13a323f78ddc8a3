import { createHashingEmbedder } from '../adapters/local/hashing-embedder.ts';
import { createExtractiveChatModel } from '../adapters/local/extractive-chat-model.ts';
import { createOfflineReranker } from '../adapters/local/offline-reranker.ts';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { logDeploymentProviders } from './provider-log.ts';
import type { Analyzer } from '../ports/analyzer.ts';
import type { ChatModel, Embedder, Reranker } from '../ports/models.ts';

/**
 * The offline models always (listed first); a provider's models when configured. Given a logger (the
 * runtime's start, not each query process or CLI command), it says which providers those are.
 */
export async function createModels(config: Config, analyzer: Analyzer, logger?: Pick<Logger, 'info' | 'warn'>) {
  if (logger) logDeploymentProviders(config, logger);
  const offlineEmbedder = createHashingEmbedder({ analyzer });
  const embedders = new Map<string, Embedder>([[offlineEmbedder.model.id, offlineEmbedder]]);
  const extractive = createExtractiveChatModel({ analyzer });
  const chatModels = new Map<string, ChatModel>([[extractive.model.id, extractive]]);
  const offlineReranker = createOfflineReranker({ analyzer });
  const rerankers = new Map<string, Reranker>([[offlineReranker.model.id, offlineReranker]]);
  if (config.openai || config.rerank) {
    const { addProviderModels } = await import('./provider-models.ts');
    addProviderModels(config, { embedders, chatModels, rerankers });
  }
  return { embedders, chatModels, rerankers, defaultReranker: offlineReranker.model.id };
}
