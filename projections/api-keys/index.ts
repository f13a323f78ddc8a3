import type { ApiKeyDoc, ApiKeyHashDoc } from '../../schemas/read-models/api-keys.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { ApiKeyDoc, ApiKeyHashDoc };

export const apiKeysProjection = defineProjection<ApiKeyDoc>()({
  collection: 'api_keys',
  eventTypes: ['ApiKeyCreated', 'ApiKeyRevoked'],
  idsOf: (event) => [event.data.key_id],
  evolve(doc, event) {
    switch (event.type) {
      case 'ApiKeyCreated': {
        const { key_id, ...rest } = event.data;
        return { id: key_id, object: 'api_key', ...rest, revoked_at: null };
      }
      case 'ApiKeyRevoked':
        return doc && { ...doc, revoked_at: event.data.revoked_at };
      default:
        return assertNever(event);
    }
  },
});

/** Secret hash → key id: how a bearer token finds its key without scanning. */
export const apiKeyHashesProjection = defineProjection<ApiKeyHashDoc>()({
  collection: 'api_key_hashes',
  eventTypes: ['ApiKeyCreated'],
  idsOf: (event) => [event.data.hash],
  evolve(_doc, event) {
    switch (event.type) {
      case 'ApiKeyCreated':
        return { key_id: event.data.key_id };
      default:
        return assertNever(event.type);
    }
  },
});
