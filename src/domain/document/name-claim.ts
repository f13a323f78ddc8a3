import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { nameClaimEvents } from '../../../schemas/events/document.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';

type Events = typeof nameClaimEvents;
export type NameClaimEvent = { [K in keyof Events]: { type: K; data: z.infer<Events[K]> } }[keyof Events];

type Claim = { knowledge_base_id: string; key: string; document_id: string };
export type NameClaimCommand = Command<'ClaimName', Claim> | Command<'ReleaseName', Claim>;
export type NameClaimState = { holder: string | null };

/**
 * A name (or a source's external id) in one knowledge base belongs to one document: whoever claims
 * it first holds it, and a later upload under it learns the holder, whose next version it becomes
 * (issue 44). Like content claims, a stream per key makes the lookup race-free: two uploads of the
 * same name at once are one document with two versions, never two documents.
 */
export const nameClaimDecider: Decider<NameClaimState, NameClaimCommand, NameClaimEvent> = {
  initialState: () => ({ holder: null }),
  streamId: (key) => `document_name-${key}`,
  isEvent: eventsOf(nameClaimEvents),
  decide(command, state) {
    switch (command.type) {
      case 'ClaimName':
        return state.holder === null ? [{ type: 'DocumentNameClaimed', data: command.data }] : [];
      case 'ReleaseName':
        return state.holder === command.data.document_id ? [{ type: 'DocumentNameReleased', data: command.data }] : [];
      default:
        return assertNever(command);
    }
  },
  evolve(_state, event) {
    switch (event.type) {
      case 'DocumentNameClaimed':
        return { holder: event.data.document_id };
      case 'DocumentNameReleased':
        return { holder: null };
      default:
        return assertNever(event);
    }
  },
};

/** What an upload is matched by: its explicit external id when it has one, else its name. */
export const nameKeyOf = (upload: { name: string; external_id?: string | undefined }) =>
  upload.external_id !== undefined ? `external:${upload.external_id}` : `name:${upload.name}`;

/** The claim's stream key: names may be long and hold any character, so they are hashed. */
export const nameClaimStreamKey = (knowledgeBaseId: string, key: string) => `${knowledgeBaseId}-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
