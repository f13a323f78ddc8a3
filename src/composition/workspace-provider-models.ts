import type { Config } from '../config.ts';
import { parseHostAllowList } from '../lib/address-policy.ts';
import { guardedFetch } from '../lib/guarded-http/fetch.ts';
import type { ProviderModelFactories } from '../ports/provider-models.ts';

type Settings = Pick<Config, 'workspaceProviders' | 'workflowHttpAllowHosts'>;

/**
 * How every workspace provider is reached (its models, its check and discovery): under the
 * workflow HTTP node's address policy, with the same allow-list (KBQA_WORKFLOW_HTTP_ALLOW_HOSTS),
 * since its base_url is a tenant's to choose. The deployment's providers (OPENAI_BASE_URL,
 * KBQA_RERANK_URL) are the operator's and keep the plain fetch.
 */
export const workspaceProviderFetch = ({ workflowHttpAllowHosts }: Pick<Config, 'workflowHttpAllowHosts'>) => guardedFetch(parseHostAllowList(workflowHttpAllowHosts));

/**
 * The clients of a workspace's provider models: the same adapters as the deployment's providers
 * (OpenAI-compatible chat and embeddings, the Cohere/Jina-style rerank API), named as /v1 names
 * them (`{provider}/{model}`, owned by the provider). The adapters are imported on the first use,
 * as composition/models.ts does for the deployment's.
 */
export function providerModelFactories(settings: Settings): ProviderModelFactories {
  const { maxRetries, timeoutMs } = settings.workspaceProviders;
  const fetch = workspaceProviderFetch(settings);
  const client = async (baseURL: string, apiKey: string) => (await import('../adapters/openai/client.ts')).createOpenAiClient({ apiKey, baseURL, maxRetries, timeoutMs, fetch, nameHost: true });
  return {
    async makeChatModel({ baseUrl, apiKey, model, info }) {
      const { createOpenAiChatModel } = await import('../adapters/openai/chat-model.ts');
      return { ...createOpenAiChatModel({ client: await client(baseUrl, apiKey), model, created: info.created }), model: info };
    },
    async makeEmbedder({ baseUrl, apiKey, model, info, dimensions }) {
      const { createOpenAiEmbedder } = await import('../adapters/openai/embedder.ts');
      return { ...createOpenAiEmbedder({ client: await client(baseUrl, apiKey), model, dimensions, created: info.created }), model: info };
    },
    async makeReranker({ baseUrl, apiKey, model, info }) {
      const { createApiReranker } = await import('../adapters/rerank-api/reranker.ts');
      return { ...createApiReranker({ baseUrl, apiKey, model, maxRetries, timeoutMs, fetch, created: info.created }), model: info };
    },
  };
}
