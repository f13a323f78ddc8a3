import type { z } from 'zod';
import { ResponseStored } from '../events/response.ts';

/** A stored response as GET /v1/responses/{id} and previous_response_id read it (projections/responses): the event, keyed by its id. */
export const ResponseDoc = ResponseStored.omit({ response_id: true }).extend({ id: ResponseStored.shape.response_id });
export type ResponseDoc = z.infer<typeof ResponseDoc>;
