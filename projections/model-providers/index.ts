import type { ModelProviderDoc } from '../../schemas/read-models/model-providers.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { ModelProviderDoc };

export const modelProvidersProjection = defineProjection<ModelProviderDoc>()({
  collection: 'model_providers',
  eventTypes: ['ModelProviderCreated', 'ModelProviderUpdated', 'ModelProviderDeleted'],
  idsOf: (event) => [event.data.provider_id],
  evolve(doc, event) {
    switch (event.type) {
      case 'ModelProviderCreated': {
        const { provider_id, created_at, ...rest } = event.data;
        return { id: provider_id, object: 'model_provider', ...rest, created_at, updated_at: created_at };
      }
      case 'ModelProviderUpdated': {
        if (!doc) return null;
        const { provider_id: _id, updated_at, ...rest } = event.data;
        return { ...doc, ...rest, updated_at };
      }
      case 'ModelProviderDeleted':
        return null;
      default:
        return assertNever(event);
    }
  },
});
