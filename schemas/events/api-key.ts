import { z } from 'zod';

export const ApiKeyScope = z.enum(['admin', 'write', 'read']);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

export const ApiKeyCreated = z.strictObject({
  key_id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  /** sha256 of the secret, hex; the secret itself is never stored. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** First characters of the secret, so people can tell their keys apart. */
  prefix: z.string(),
  scopes: z.array(ApiKeyScope).min(1),
  knowledge_base_ids: z.array(z.string()).nullable(),
  expires_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});

export const ApiKeyRevoked = z.strictObject({ key_id: z.string(), revoked_at: z.iso.datetime() });

export const apiKeyEvents = { ApiKeyCreated, ApiKeyRevoked } as const;
