import type { Config } from '../config.ts';
import type { ProviderChatModelFactory } from '../ports/provider-models.ts';

/**
 * The clients of a workspace's provider models: the same OpenAI-compatible adapter as the
 * deployment's providers, named as /v1 names them (`{provider}/{model}`, owned by the provider).
 * The openai package is imported on the first use, as composition/models.ts does for the deployment's.
 */
export function providerChatModelFactory({ workspaceProviders: { maxRetries, timeoutMs } }: Pick<Config, 'workspaceProviders'>): ProviderChatModelFactory {
  return async ({ baseUrl, apiKey, model, info }) => {
    const [{ createOpenAiClient }, { createOpenAiChatModel }] = await Promise.all([import('../adapters/openai/client.ts'), import('../adapters/openai/chat-model.ts')]);
    const chat = createOpenAiChatModel({ client: createOpenAiClient({ apiKey, baseURL: baseUrl, maxRetries, timeoutMs }), model, created: info.created });
    return { ...chat, model: info };
  };
}
