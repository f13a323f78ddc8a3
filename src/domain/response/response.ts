import type { z } from 'zod';
import { responseEvents, type ResponseDeleted, type ResponseStored } from '../../../schemas/events/response.ts';
import { assertNever, eventsOf, type Command, type Decider } from '../shared/decider.ts';

export type ResponseEvent = { type: 'ResponseStored'; data: z.infer<typeof ResponseStored> } | { type: 'ResponseDeleted'; data: z.infer<typeof ResponseDeleted> };

export type ResponseCommand =
  | Command<'StoreResponse', Omit<z.infer<typeof ResponseStored>, 'stored_at'>>
  | Command<'DeleteResponse', { response_id: string }>;

export type ResponseState = { status: 'none' } | { status: 'stored'; stored: z.infer<typeof ResponseStored> } | { status: 'deleted' };

/** A response is stored once and deleted once; a deleted one stays deleted (its id is not reused). */
export const responseDecider: Decider<ResponseState, ResponseCommand, ResponseEvent> = {
  initialState: () => ({ status: 'none' }),
  streamId: (id) => `response-${id}`,
  isEvent: eventsOf(responseEvents),
  decide(command, state) {
    switch (command.type) {
      case 'StoreResponse':
        return state.status === 'none' ? [{ type: 'ResponseStored', data: { ...command.data, stored_at: command.metadata.now } }] : [];
      case 'DeleteResponse':
        return state.status === 'stored' ? [{ type: 'ResponseDeleted', data: { response_id: command.data.response_id, deleted_at: command.metadata.now } }] : [];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ResponseStored':
        return { status: 'stored', stored: event.data };
      case 'ResponseDeleted':
        return { status: 'deleted' };
      default:
        return assertNever(event);
    }
  },
};
