import type { z } from 'zod';
import { idempotencyEvents } from '../../../schemas/events/document.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, invalid } from '../shared/errors.ts';

type Events = typeof idempotencyEvents;

export const CLAIM_LAPSES_AFTER_MS = 5 * 60_000;
export type IdempotencyEvent = { [K in keyof Events]: { type: K; data: z.infer<Events[K]> } }[keyof Events];

export type IdempotencyCommand =
  | Command<'ClaimKey', { workspace_id: string; key: string; fingerprint: string }>
  | Command<'CompleteKey', { workspace_id: string; key: string; status: number; resource_ids: string[] }>;

export type IdempotencyState =
  | { status: 'free' }
  | { status: 'claimed'; fingerprint: string; claimedAt: string }
  | { status: 'completed'; fingerprint: string; resourceIds: string[] };

/**
 * An Idempotency-Key names one request: the first claims it, a retry with the same body gets the
 * first one's result, the same key with another body is refused, and a retry racing the first is told to wait.
 */
export const idempotencyDecider: Decider<IdempotencyState, IdempotencyCommand, IdempotencyEvent> = {
  initialState: () => ({ status: 'free' }),
  streamId: (id) => `idempotency-${id}`,
  isEvent: eventsOf(idempotencyEvents),
  decide(command, state) {
    switch (command.type) {
      case 'ClaimKey': {
        if (state.status === 'free') return [{ type: 'IdempotencyKeyClaimed', data: { ...command.data, claimed_at: command.metadata.now } }];
        if (state.fingerprint !== command.data.fingerprint) {
          throw invalid('idempotency_key_reused', 'This Idempotency-Key was used with a different request.', 'Idempotency-Key');
        }
        if (state.status === 'claimed') {
          // A claim whose request died (the process crashed mid-way) lapses, so the client's retry can go through.
          if (Date.parse(command.metadata.now) - Date.parse(state.claimedAt) > CLAIM_LAPSES_AFTER_MS) {
            return [{ type: 'IdempotencyKeyClaimed', data: { ...command.data, claimed_at: command.metadata.now } }];
          }
          throw conflict('idempotency_key_in_progress', 'A request with this Idempotency-Key is still in progress.');
        }
        return [];
      }
      case 'CompleteKey':
        return state.status === 'claimed' ? [{ type: 'IdempotentRequestCompleted', data: command.data }] : [];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'IdempotencyKeyClaimed':
        return { status: 'claimed', fingerprint: event.data.fingerprint, claimedAt: event.data.claimed_at };
      case 'IdempotentRequestCompleted':
        return { status: 'completed', fingerprint: state.status === 'free' ? '' : state.fingerprint, resourceIds: event.data.resource_ids };
      default:
        return assertNever(event);
    }
  },
};
