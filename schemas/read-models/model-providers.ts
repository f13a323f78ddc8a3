import { z } from 'zod';
import { ProviderModel } from '../events/model-provider.ts';

/** A provider as the model-providers projection stores it: its key only as a SecretStore ref and a hint. */
export const ModelProviderDoc = z.object({
  id: z.string(),
  object: z.literal('model_provider'),
  workspace_id: z.string(),
  name: z.string(),
  base_url: z.string(),
  secret_ref: z.string(),
  api_key_hint: z.string(),
  models: z.array(ProviderModel),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ModelProviderDoc = z.infer<typeof ModelProviderDoc>;
