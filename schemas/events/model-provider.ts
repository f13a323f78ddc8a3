import { z } from 'zod';

/** A provider's name: its models are `{name}/{model id}` wherever a model is named. */
export const ProviderName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'lower-case letters, digits and -, at most 32, starting with a letter or digit');

export const ProviderModelType = z.enum(['chat', 'embedding', 'rerank']);

/** A model the provider serves, by the provider's own id (`gpt-4o-mini`, `llama3.1:8b` …). */
export const ProviderModel = z.strictObject({
  id: z.string().min(1).max(200).regex(/^\S+$/, 'no whitespace'),
  type: ProviderModelType,
  dimensions: z.int().min(1).max(65536).optional(),
});

/**
 * What a provider is, whole, in every event that sets it: the API key is only a reference into the
 * SecretStore (`secret_ref`) and its last characters (`api_key_hint`), never the key.
 */
const ProviderFields = {
  provider_id: z.string(),
  workspace_id: z.string(),
  name: ProviderName,
  base_url: z.url(),
  secret_ref: z.string(),
  api_key_hint: z.string(),
  models: z.array(ProviderModel),
};

export const ModelProviderCreated = z.strictObject({ ...ProviderFields, created_at: z.iso.datetime() });

/** The provider as it is after the change (all its fields, so a reader needs no earlier event). */
export const ModelProviderUpdated = z.strictObject({ ...ProviderFields, updated_at: z.iso.datetime() });

/** The provider is gone and its key destroyed in the SecretStore. */
export const ModelProviderDeleted = z.strictObject({
  provider_id: z.string(),
  workspace_id: z.string(),
  name: ProviderName,
  secret_ref: z.string(),
  deleted_at: z.iso.datetime(),
});

export const modelProviderEvents = { ModelProviderCreated, ModelProviderUpdated, ModelProviderDeleted } as const;

/** A provider name held in a workspace: one stream per name, so a name is taken once however many requests race for it. */
const NameClaim = { workspace_id: z.string(), name: ProviderName, provider_id: z.string() };
export const ModelProviderNameClaimed = z.strictObject(NameClaim);
export const ModelProviderNameReleased = z.strictObject(NameClaim);

export const modelProviderNameEvents = { ModelProviderNameClaimed, ModelProviderNameReleased } as const;
