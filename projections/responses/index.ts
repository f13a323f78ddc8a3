import type { ResponseDoc } from '../../schemas/read-models/responses.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { ResponseDoc };

/** Deleting a response removes its document. */
export const responsesProjection = defineProjection<ResponseDoc>()({
  collection: 'responses',
  eventTypes: ['ResponseStored', 'ResponseDeleted'],
  idsOf: (event) => [event.data.response_id],
  evolve(_doc, event) {
    switch (event.type) {
      case 'ResponseStored': {
        const { response_id, ...rest } = event.data;
        return { id: response_id, ...rest };
      }
      case 'ResponseDeleted':
        return null;
      default:
        return assertNever(event);
    }
  },
});
