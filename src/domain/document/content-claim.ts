import type { z } from 'zod';
import { contentClaimEvents } from '../../../schemas/events/document.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';

type Events = typeof contentClaimEvents;
export type ContentClaimEvent = { [K in keyof Events]: { type: K; data: z.infer<Events[K]> } }[keyof Events];

type Claim = { knowledge_base_id: string; sha256: string; document_id: string };
export type ContentClaimCommand = Command<'ClaimContent', Claim> | Command<'ReleaseContent', Claim>;
export type ContentClaimState = { holder: string | null };

/**
 * The same bytes in one knowledge base are one document: whoever claims the content first owns
 * it, and a later upload learns the holder instead of creating a twin.
 */
export const contentClaimDecider: Decider<ContentClaimState, ContentClaimCommand, ContentClaimEvent> = {
  initialState: () => ({ holder: null }),
  streamId: (key) => `document_content-${key}`,
  isEvent: eventsOf(contentClaimEvents),
  decide(command, state) {
    switch (command.type) {
      case 'ClaimContent':
        return state.holder === null ? [{ type: 'DocumentContentClaimed', data: command.data }] : [];
      case 'ReleaseContent':
        return state.holder === command.data.document_id ? [{ type: 'DocumentContentReleased', data: command.data }] : [];
      default:
        return assertNever(command);
    }
  },
  evolve(_state, event) {
    switch (event.type) {
      case 'DocumentContentClaimed':
        return { holder: event.data.document_id };
      case 'DocumentContentReleased':
        return { holder: null };
      default:
        return assertNever(event);
    }
  },
};

export const contentKey = (knowledgeBaseId: string, sha256: string) => `${knowledgeBaseId}-${sha256}`;
