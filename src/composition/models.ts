import { createHashingEmbedder } from '../adapters/local/hashing-embedder.ts';
import { createExtractiveChatModel } from '../adapters/local/extractive-chat-model.ts';
import { createLocalEmbedder } from '../adapters/local/local-embedder.ts';
import { findLocalModels } from '../adapters/local/model-folders.ts';
import { runtimeDir, runtimeInstalled } from '../adapters/local/model-runtime.ts';
import { createOfflineReranker } from '../adapters/local/offline-reranker.ts';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { logDeploymentProviders } from './provider-log.ts';
import type { Analyzer } from '../ports/analyzer.ts';
import type { ChatModel, Embedder, Reranker } from '../ports/models.ts';

/**
 * The offline models always (listed first); the built-in local models whose folder is in the
 * models directory; a provider's models when configured. Given a logger (the runtime's start, not
 * each query process or CLI command), it says which local models and providers those are.
 */
export async function createModels(config: Config, analyzer: Analyzer, logger?: Pick<Logger, 'info' | 'warn'>) {
  if (logger) logDeploymentProviders(config, logger);
  const offlineEmbedder = createHashingEmbedder({ analyzer });
  const embedders = new Map<string, Embedder>([[offlineEmbedder.model.id, offlineEmbedder]]);
  const local = localEmbedders(config, logger);
  for (const embedder of local.embedders) embedders.set(embedder.model.id, embedder);
  const extractive = createExtractiveChatModel({ analyzer });
  const chatModels = new Map<string, ChatModel>([[extractive.model.id, extractive]]);
  const offlineReranker = createOfflineReranker({ analyzer });
  const rerankers = new Map<string, Reranker>([[offlineReranker.model.id, offlineReranker]]);
  if (config.openai || config.rerank) {
    const { addProviderModels } = await import('./provider-models.ts');
    addProviderModels(config, { embedders, chatModels, rerankers });
  }
  return { embedders, chatModels, rerankers, defaultReranker: offlineReranker.model.id, unavailable: local.unavailable, close: local.close };
}

/** The installed ones as embedders (each loads on its first call); the others, with why, for the error that names them. */
function localEmbedders({ modelsDir, modelThreads }: Pick<Config, 'modelsDir' | 'modelThreads'>, logger?: Pick<Logger, 'info' | 'warn'>) {
  const found = findLocalModels(modelsDir);
  const embedders = found.filter((m) => m.state === 'installed').map(({ spec, folder }) => createLocalEmbedder({ spec, folder, runtime: runtimeDir(modelsDir), threads: modelThreads }));
  const unavailable = new Map(
    found
      .filter((m) => m.state !== 'installed')
      .map(({ spec, state }) => [spec.id, `${spec.id} is a built-in local model whose folder is ${state === 'missing' ? 'not installed' : 'incomplete'} on this server; an operator installs it with \`npm run models:fetch\` or \`kbqa models install\` and restarts the server.`]),
  );
  logger?.info({ models_dir: modelsDir, local_models: found.map(({ spec, state, bytes }) => ({ id: spec.id, state, bytes })) }, `local models: ${found.filter((m) => m.state === 'installed').map((m) => m.spec.id).join(', ') || 'none installed'}`);
  if (embedders.length > 0 && !runtimeInstalled(modelsDir)) logger?.warn({ runtime: runtimeDir(modelsDir) }, 'local models: their runtime is not installed in the models directory (kbqa models fetch); they load only if the project itself has @huggingface/transformers.');
  for (const m of found.filter((f) => f.state === 'incomplete')) logger?.warn({ folder: m.folder }, `${m.spec.id}: its folder is incomplete (kbqa models verify says which files); it is not served.`);
  return { embedders, unavailable, close: () => Promise.all(embedders.map((e) => e.close())).then(() => undefined) };
}
