import type { z } from 'zod';
import type { ResponseStored } from '../../schemas/events/response.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

/** A stored response as GET /v1/responses/{id} and previous_response_id read it; deleting it removes the document. */
export type ResponseDoc = Omit<z.infer<typeof ResponseStored>, 'response_id'> & { id: string };

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
