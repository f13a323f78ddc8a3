import type { SecretDoc } from '../../../projections/secrets/index.ts';
import type { Secret } from '../../../schemas/http/secrets.ts';
import { secretDecider, secretKey } from '../../domain/secret/secret.ts';
import { parseHostAllowList } from '../../lib/address-policy.ts';
import type { SecretStore } from '../../ports/secret-store.ts';
import { foldStream, handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { badRequest } from '../errors.ts';
import { findPage, type PageRequest } from './paging.ts';
import { type Principal, requireWorkspaceWide } from './principal.ts';
import { secretHint } from './secret-hint.ts';

const present = ({ name, hint, allowed_hosts = [], created_at }: Pick<SecretDoc, 'name' | 'hint' | 'allowed_hosts' | 'created_at'>): Secret => ({ name, hint, allowed_hosts, created_at });

/** A secret as an http_request node uses it: its value and the hosts it may be sent to (none: nowhere). */
export type UsableSecret = { value: string; allowedHosts: readonly string[] };

/** The destinations as they will be matched (lower case, each once); one that does not parse is the client's to fix. */
function destinations(hosts: readonly string[]): string[] {
  const normalized = [...new Set(hosts.map((host) => host.trim().toLowerCase()))];
  for (const host of normalized) {
    try {
      parseHostAllowList([host]);
    } catch {
      throw badRequest('invalid_allowed_host', `allowed_hosts: '${host}' is neither a host name (api.example.com, *.example.com) nor an IP address or range.`, 'allowed_hosts');
    }
  }
  return normalized;
}

/**
 * A workspace's named secrets. The value goes to the SecretStore under a fresh ref before the
 * event that names the ref is appended (an event never points at nothing); when the append is
 * refused the value is destroyed again. Deleting destroys the value first: once a caller asked
 * for it gone, no failure later may leave it readable.
 */
export function createSecretService(ctx: AppContext, secrets: SecretStore) {
  return {
    async create(principal: Principal, body: { name: string; value: string; allowed_hosts?: string[] }, correlationId?: string): Promise<Secret> {
      requireWorkspaceWide(principal, 'secrets');
      const allowed = destinations(body.allowed_hosts ?? []);
      const ref = ctx.newId('sec');
      await secrets.put(principal.workspaceId, ref, body.value);
      try {
        const result = await handleCommand(ctx.store, secretDecider, secretKey(principal.workspaceId, body.name), {
          type: 'StoreSecret',
          data: { workspace_id: principal.workspaceId, name: body.name, secret_ref: ref, hint: secretHint(body.value), allowed_hosts: allowed },
          metadata: commandMetadata(ctx, principal.keyId, correlationId),
        });
        await settled(ctx, result);
        return present(result.state.stored!);
      } catch (error) {
        await secrets.delete(principal.workspaceId, ref);
        throw error;
      }
    },

    async list(principal: Principal, page: PageRequest) {
      requireWorkspaceWide(principal, 'secrets');
      const key = (name: string | undefined) => (name === undefined ? undefined : secretKey(principal.workspaceId, name));
      const found = await findPage(ctx.readModels, 'secrets', { workspace_id: principal.workspaceId }, { ...page, after: key(page.after) }, { present: (doc: SecretDoc) => doc });
      // The cursor is a name: the document ids carry the workspace, which the API does not show.
      return { ...found, data: found.data.map(present), first_id: found.data[0]?.name ?? null, last_id: found.data.at(-1)?.name ?? null };
    },

    /** Replaces the hosts the secret may be sent to; the value stays as it is. */
    async update(principal: Principal, name: string, body: { allowed_hosts: string[] }, correlationId?: string): Promise<Secret> {
      requireWorkspaceWide(principal, 'secrets');
      const result = await handleCommand(ctx.store, secretDecider, secretKey(principal.workspaceId, name), {
        type: 'ChangeSecretAllowedHosts',
        data: { workspace_id: principal.workspaceId, name, allowed_hosts: destinations(body.allowed_hosts) },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      await settled(ctx, result);
      return present(result.state.stored!);
    },

    /**
     * A secret's value and destinations, for the workflow runner's http_request nodes only: no
     * route returns it. The destinations come from the secret's stream, not the read model, so a
     * host an admin has just removed is never sent the value by a projection that lags.
     */
    async usable(workspaceId: string, name: string): Promise<UsableSecret | undefined> {
      const streamId = secretDecider.streamId(secretKey(workspaceId, name));
      const { stored } = foldStream(secretDecider, streamId, await ctx.store.readStream(streamId));
      if (!stored || stored.workspace_id !== workspaceId) return undefined;
      const value = await secrets.get(workspaceId, stored.secret_ref);
      return value === null ? undefined : { value, allowedHosts: stored.allowed_hosts ?? [] };
    },

    async delete(principal: Principal, name: string, correlationId?: string) {
      requireWorkspaceWide(principal, 'secrets');
      const doc = await ctx.readModels.get<SecretDoc>('secrets', secretKey(principal.workspaceId, name));
      if (doc) await secrets.delete(principal.workspaceId, doc.secret_ref);
      const result = await handleCommand(ctx.store, secretDecider, secretKey(principal.workspaceId, name), {
        type: 'DeleteSecret',
        data: { workspace_id: principal.workspaceId, name },
        metadata: commandMetadata(ctx, principal.keyId, correlationId),
      });
      const deleted = result.events[0];
      // The read model may lag behind the stream: the event names the ref for certain.
      if (deleted?.type === 'SecretDeleted' && deleted.data.secret_ref !== doc?.secret_ref) await secrets.delete(principal.workspaceId, deleted.data.secret_ref);
      await settled(ctx, result);
    },
  };
}

export type SecretService = ReturnType<typeof createSecretService>;
