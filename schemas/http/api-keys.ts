import { z } from 'zod';
import { ApiKeyScope } from '../events/api-key.ts';

export const CreateApiKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  scopes: z.array(ApiKeyScope).min(1).default(['write']),
  knowledge_base_ids: z.array(z.string().min(1).max(200)).min(1).max(1000).nullable().default(null),
  expires_at: z.iso.datetime({ offset: true }).nullable().default(null),
});

export const ApiKey = z.object({
  id: z.string(),
  object: z.literal('api_key'),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(ApiKeyScope),
  knowledge_base_ids: z.array(z.string()).nullable(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});

export const ApiKeyWithSecret = ApiKey.extend({ secret: z.string().describe('Shown once, never again.') });
