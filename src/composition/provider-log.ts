import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { ApiError } from '../ports/api-error.ts';

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

/**
 * What a request's 5xx writes: a model provider's failure (unreachable, timing out, refusing its
 * key: an API error whose code says provider_) is one warn line with its reason and what the
 * provider said (`cause`: its message, the key already scrubbed from it: adapters/openai/
 * provider-errors.ts), no stack, since that is the whole story and it may repeat with every
 * request; anything else, the stack.
 */
export function serverErrorLog(logger: Pick<Logger, 'warn' | 'error'>) {
  return (error: unknown, requestId: string) => {
    if (error instanceof ApiError && error.code.startsWith('provider_')) {
      const cause = error.cause instanceof Error ? error.cause.message : undefined;
      return void logger.warn({ requestId, code: error.code, status: error.status, reason: error.message, ...(cause && { cause }) }, 'provider call failed');
    }
    logger.error({ err: error, requestId }, 'request failed');
  };
}

/**
 * What a consumer group's failure writes: a provider's is at debug without a stack (the consumer's
 * own line says it once, "document failed" with the reason, or the run's); anything else, the stack.
 */
export function busErrorLog(logger: Pick<Logger, 'debug' | 'error'>) {
  return (group: string, error: unknown) => {
    if (error instanceof ApiError && error.code.startsWith('provider_')) return void logger.debug({ group, code: error.code, reason: error.message }, 'provider call failed');
    logger.error({ err: error, group }, 'consumer group error');
  };
}
