import type { z } from 'zod';
import { modelProviderNameEvents } from '../../../schemas/events/model-provider.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';

type Events = typeof modelProviderNameEvents;
export type ProviderNameEvent = { [K in keyof Events]: { type: K; data: z.infer<Events[K]> } }[keyof Events];

type Claim = { workspace_id: string; name: string; provider_id: string };
export type ProviderNameCommand = Command<'ClaimProviderName', Claim> | Command<'ReleaseProviderName', Claim>;
export type ProviderNameState = { holder: string | null };

export const providerNameKey = (workspaceId: string, name: string) => `${workspaceId}-${name}`;

/**
 * A provider's name in a workspace: whoever claims it first holds it until it releases it. A claim
 * by the holder again, or a release by another, changes nothing (retries are harmless).
 */
export const providerNameDecider: Decider<ProviderNameState, ProviderNameCommand, ProviderNameEvent> = {
  initialState: () => ({ holder: null }),
  streamId: (key) => `model_provider_name-${key}`,
  isEvent: eventsOf(modelProviderNameEvents),
  decide(command, state) {
    switch (command.type) {
      case 'ClaimProviderName':
        return state.holder === null ? [{ type: 'ModelProviderNameClaimed', data: command.data }] : [];
      case 'ReleaseProviderName':
        return state.holder === command.data.provider_id ? [{ type: 'ModelProviderNameReleased', data: command.data }] : [];
      default:
        return assertNever(command);
    }
  },
  evolve(_state, event) {
    switch (event.type) {
      case 'ModelProviderNameClaimed':
        return { holder: event.data.provider_id };
      case 'ModelProviderNameReleased':
        return { holder: null };
      default:
        return assertNever(event);
    }
  },
};
