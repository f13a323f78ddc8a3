import type { z } from 'zod';
import { apiKeyEvents } from '../../../schemas/events/api-key.ts';
import type { ApiKeyCreated, ApiKeyRevoked, ApiKeyScope } from '../../../schemas/events/api-key.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { conflict, invalid, missing } from '../shared/errors.ts';

type Created = z.infer<typeof ApiKeyCreated>;

export type ApiKeyEvent =
  | { type: 'ApiKeyCreated'; data: Created }
  | { type: 'ApiKeyRevoked'; data: z.infer<typeof ApiKeyRevoked> };

export type ApiKeyCommand =
  | Command<'CreateApiKey', Omit<Created, 'created_at'>>
  | Command<'RevokeApiKey', { key_id: string; workspace_id: string }>;

export type ApiKeyState =
  | { status: 'absent' }
  | { status: 'active' | 'revoked'; key: Created };

export const apiKeyDecider: Decider<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  initialState: () => ({ status: 'absent' }),
  streamId: (id) => `api_key-${id}`,
  isEvent: eventsOf(apiKeyEvents),
  decide(command, state) {
    switch (command.type) {
      case 'CreateApiKey': {
        if (state.status !== 'absent') throw conflict('api_key_exists', `api key ${command.data.key_id} already exists`);
        const { expires_at, scopes } = command.data;
        if (expires_at !== null && Date.parse(expires_at) <= Date.parse(command.metadata.now)) {
          throw invalid('invalid_expiry', 'expires_at: must be in the future', 'expires_at');
        }
        if (new Set(scopes).size !== scopes.length) throw invalid('duplicate_scope', 'scopes: must not repeat', 'scopes');
        return [{ type: 'ApiKeyCreated', data: { ...command.data, created_at: command.metadata.now } }];
      }
      case 'RevokeApiKey':
        if (state.status !== 'active' || state.key.workspace_id !== command.data.workspace_id) {
          throw missing('api_key', command.data.key_id);
        }
        return [{ type: 'ApiKeyRevoked', data: { key_id: command.data.key_id, revoked_at: command.metadata.now } }];
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyCreated':
        return { status: 'active', key: event.data };
      case 'ApiKeyRevoked':
        return state.status === 'absent' ? state : { status: 'revoked', key: state.key };
      default:
        return assertNever(event);
    }
  },
};

/** Scopes nest: admin can do all that write can, write all that read can. */
const rank: Record<ApiKeyScope, number> = { read: 1, write: 2, admin: 3 };

export function grants(scopes: readonly ApiKeyScope[], required: ApiKeyScope): boolean {
  return scopes.some((s) => rank[s] >= rank[required]);
}

export type KeyValidity = 'valid' | 'revoked' | 'expired';

/** `expiresAtMs` and `nowMs` are epoch milliseconds: this runs on every request, so no date parsing here. */
export function keyValidity(key: { revoked: boolean; expiresAtMs: number | null }, nowMs: number): KeyValidity {
  if (key.revoked) return 'revoked';
  if (key.expiresAtMs !== null && key.expiresAtMs <= nowMs) return 'expired';
  return 'valid';
}


/**
 * The one access rule for anything that touches knowledge bases (a workflow, its runs, an API
 * key): a key may use it only when it may use every knowledge base it names. `null` means all of
 * them, which only an unlimited key may reach.
 */
export function mayUseKnowledgeBases(allowed: readonly string[] | null, knowledgeBaseIds: readonly string[] | null): boolean {
  if (allowed === null) return true;
  return knowledgeBaseIds !== null && knowledgeBaseIds.every((id) => allowed.includes(id));
}
