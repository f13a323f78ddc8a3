import { z } from 'zod';
import { ProviderModel, ProviderName } from '../events/model-provider.ts';
import { ModelProviderDoc } from '../read-models/model-providers.ts';

/** Where the provider's OpenAI-compatible API is: http(s), without credentials, query or fragment (they would end up in events and logs). */
export const BaseUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .refine((url) => {
    const parsed = new URL(url);
    return !parsed.username && !parsed.password && !parsed.search && !parsed.hash;
  }, 'must be an http(s) URL without credentials, query or fragment, such as https://api.openai.com/v1')
  .describe('The provider’s OpenAI-compatible API root, e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM).');

const ApiKeyValue = z.string().min(1).max(8192).describe('Stored encrypted; only its last four characters are ever shown (api_key_hint).');

export const CreateModelProviderBody = z.strictObject({
  name: ProviderName,
  base_url: BaseUrl,
  api_key: ApiKeyValue,
  models: z.array(ProviderModel).max(500).default([]),
});

export const UpdateModelProviderBody = z.strictObject({
  name: ProviderName.optional(),
  base_url: BaseUrl.optional(),
  api_key: ApiKeyValue.optional(),
  models: z.array(ProviderModel).max(500).optional(),
});

/** A provider as the API shows it: never its key, nor the key's ref. */
export const ModelProvider = ModelProviderDoc.omit({ workspace_id: true, secret_ref: true });
export type ModelProvider = z.infer<typeof ModelProvider>;

export const ProviderCheck = z.object({
  ok: z.boolean(),
  latency_ms: z.int(),
  error: z
    .object({
      code: z.enum(['forbidden_address', 'auth_failed', 'dns_failed', 'connection_refused', 'timeout', 'tls_error', 'wrong_path', 'provider_error', 'invalid_response', 'connection_failed']),
      message: z.string(),
    })
    .optional(),
});

export const DiscoveredModels = z.object({
  object: z.literal('list'),
  data: z.array(z.object({ id: z.string(), type: z.enum(['chat', 'embedding', 'rerank']).optional() })),
});
