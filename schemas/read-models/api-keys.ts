import { z } from 'zod';
import { ApiKeyScope } from '../events/api-key.ts';

/** A key as the api-keys projection stores it (projections/api-keys): its secret only as a hash. */
export const ApiKeyDoc = z.object({
  id: z.string(),
  object: z.literal('api_key'),
  workspace_id: z.string(),
  name: z.string(),
  hash: z.string(),
  prefix: z.string(),
  scopes: z.array(ApiKeyScope),
  knowledge_base_ids: z.array(z.string()).nullable(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type ApiKeyDoc = z.infer<typeof ApiKeyDoc>;

/** Secret hash → key id: how a bearer token finds its key without scanning. */
export const ApiKeyHashDoc = z.object({ key_id: z.string() });
export type ApiKeyHashDoc = z.infer<typeof ApiKeyHashDoc>;
