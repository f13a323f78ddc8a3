import type { z } from 'zod';
import type { ApiKeyCreated, ApiKeyRevoked, ApiKeyScope } from '../../schemas/events/api-key.ts';
import { defineProjection } from '../projection.ts';

export type ApiKeyDoc = {
  id: string;
  object: 'api_key';
  workspace_id: string;
  name: string;
  hash: string;
  prefix: string;
  scopes: ApiKeyScope[];
  knowledge_base_ids: string[] | null;
  expires_at: string | null;
  created_at: string;
  revoked_at: string | null;
};

export const apiKeysProjection = defineProjection<ApiKeyDoc>({
  collection: 'api_keys',
  eventTypes: ['ApiKeyCreated', 'ApiKeyRevoked'],
  idsOf: (event) => [(event.data as { key_id: string }).key_id],
  evolve(doc, event) {
    if (event.type === 'ApiKeyCreated') {
      const { key_id, ...rest } = event.data as z.infer<typeof ApiKeyCreated>;
      return { id: key_id, object: 'api_key', ...rest, revoked_at: null };
    }
    return doc && { ...doc, revoked_at: (event.data as z.infer<typeof ApiKeyRevoked>).revoked_at };
  },
});

/** Secret hash → key id: how a bearer token finds its key without scanning. */
export type ApiKeyHashDoc = { key_id: string };

export const apiKeyHashesProjection = defineProjection<ApiKeyHashDoc>({
  collection: 'api_key_hashes',
  eventTypes: ['ApiKeyCreated'],
  idsOf: (event) => [(event.data as { hash: string }).hash],
  evolve: (_doc, event) => ({ key_id: (event.data as { key_id: string }).key_id }),
});
