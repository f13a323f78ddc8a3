import type { z } from 'zod';
import { secretEvents } from '../../../schemas/events/secret.ts';
import type { SecretStored } from '../../../schemas/events/secret.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, missing } from '../shared/errors.ts';

type Events = typeof secretEvents;
export type SecretEvent = { [K in keyof Events]: { type: K; data: z.infer<Events[K]> } }[keyof Events];
type Stored = z.infer<typeof SecretStored>;

export type SecretCommand =
  | Command<'StoreSecret', Omit<Stored, 'created_at'>>
  | Command<'ChangeSecretAllowedHosts', { workspace_id: string; name: string; allowed_hosts: string[] }>
  | Command<'DeleteSecret', { workspace_id: string; name: string }>;

export type SecretState = { stored: Stored | null };

/** One stream per name in a workspace, so a name is taken once however many requests race for it. */
export const secretKey = (workspaceId: string, name: string) => `${workspaceId}-${name}`;

/** A workspace's named secret: stored once under its name (delete it to store another), its destinations changed in place, deleted for good. */
export const secretDecider: Decider<SecretState, SecretCommand, SecretEvent> = {
  initialState: () => ({ stored: null }),
  streamId: (key) => `secret-${key}`,
  isEvent: eventsOf(secretEvents),
  decide(command, state) {
    switch (command.type) {
      case 'StoreSecret':
        if (state.stored) throw conflict('secret_exists', `A secret named '${command.data.name}' already exists; delete it first to store a new value.`);
        return [{ type: 'SecretStored', data: { ...command.data, created_at: command.metadata.now } }];
      case 'ChangeSecretAllowedHosts': {
        const { stored } = state;
        if (!stored || stored.workspace_id !== command.data.workspace_id) throw missing('secret', command.data.name);
        const { workspace_id, name, allowed_hosts } = command.data;
        return [{ type: 'SecretAllowedHostsChanged', data: { workspace_id, name, allowed_hosts, changed_at: command.metadata.now } }];
      }
      case 'DeleteSecret': {
        const { stored } = state;
        if (!stored || stored.workspace_id !== command.data.workspace_id) throw missing('secret', command.data.name);
        return [{ type: 'SecretDeleted', data: { workspace_id: stored.workspace_id, name: stored.name, secret_ref: stored.secret_ref, deleted_at: command.metadata.now } }];
      }
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'SecretStored':
        return { stored: event.data };
      case 'SecretAllowedHostsChanged':
        return { stored: state.stored && { ...state.stored, allowed_hosts: event.data.allowed_hosts } };
      case 'SecretDeleted':
        return { stored: null };
      default:
        return assertNever(event);
    }
  },
};
