import { z } from 'zod';
import { ApiKeyScope } from '../events/api-key.ts';
import { ApiKeyDoc } from '../read-models/api-keys.ts';

export const CreateApiKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  scopes: z.array(ApiKeyScope).min(1).default(['write']),
  knowledge_base_ids: z.array(z.string().min(1).max(200)).min(1).max(1000).nullable().default(null),
  expires_at: z.iso.datetime({ offset: true }).nullable().default(null),
});

/** A key as the API shows it: never its hash. */
export const ApiKey = ApiKeyDoc.omit({ workspace_id: true, hash: true });
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyWithSecret = ApiKey.extend({ secret: z.string().describe('Shown once, never again.') });
