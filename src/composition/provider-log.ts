import type { Logger } from 'pino';
import type { Config } from '../config.ts';

/** The host (and port) of a base URL: never its path's query, nor credentials, nor the key beside it. */
const hostOf = (url: string | undefined, fallback: string) => (url ? new URL(url).host : fallback);

/**
 * One line per deployment-wide provider the environment configures, at start-up: where it is and
 * the model ids it offers, so that a setting that offers nothing is seen at once. Never the key.
 */
export function logDeploymentProviders(config: Pick<Config, 'openai' | 'rerank'>, logger: Pick<Logger, 'info' | 'warn'>) {
  const { openai, rerank } = config;
  if (openai) {
    const fields = {
      provider: 'openai',
      host: hostOf(openai.baseUrl, 'api.openai.com'),
      chat_models: openai.chatModels,
      embedding_models: openai.embeddingModels.map(({ id, dimensions }) => `${id}:${dimensions}`),
    };
    if (openai.chatModels.length === 0 && openai.embeddingModels.length === 0) {
      logger.warn(fields, 'OPENAI_API_KEY is set but offers no model: set KBQA_OPENAI_CHAT_MODELS (id,…) and/or KBQA_OPENAI_EMBEDDING_MODELS (id:dimensions,…)');
    } else if (openai.defaultModels) {
      logger.info(fields, "deployment model provider: OpenAI's default models (set KBQA_OPENAI_CHAT_MODELS or KBQA_OPENAI_EMBEDDING_MODELS to choose)");
    } else {
      logger.info(fields, 'deployment model provider');
    }
  }
  if (rerank) {
    const fields = { provider: 'rerank', host: hostOf(rerank.baseUrl, ''), rerank_models: rerank.models };
    if (rerank.models.length === 0) logger.warn(fields, 'KBQA_RERANK_URL is set but offers no model: set KBQA_RERANK_MODELS (id,…)');
    else logger.info(fields, 'deployment model provider');
  }
}
