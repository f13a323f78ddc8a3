import type { SecretDoc } from '../../../projections/secrets/index.ts';
import type { Secret } from '../../../schemas/http/secrets.ts';
import { secretDecider, secretKey } from '../../domain/secret/secret.ts';
import type { SecretStore } from '../../ports/secret-store.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { findPage, type PageRequest } from './paging.ts';
import { type Principal, requireWorkspaceWide } from './principal.ts';
import { secretHint } from './secret-hint.ts';

const present = ({ name, hint, created_at }: Pick<SecretDoc, 'name' | 'hint' | 'created_at'>): Secret => ({ name, hint, created_at });

/**
 * A workspace's named secrets. The value goes to the SecretStore under a fresh ref before the
 * event that names the ref is appended (an event never points at nothing); when the append is
 * refused the value is destroyed again. Deleting destroys the value first: once a caller asked
 * for it gone, no failure later may leave it readable.
 */
export function createSecretService(ctx: AppContext, secrets: SecretStore) {
  return {
    async create(principal: Principal, body: { name: string; value: string }, correlationId?: string): Promise<Secret> {
      requireWorkspaceWide(principal, 'secrets');
      const ref = ctx.newId('sec');
      await secrets.put(principal.workspaceId, ref, body.value);
      try {
        const result = await handleCommand(ctx.store, secretDecider, secretKey(principal.workspaceId, body.name), {
          type: 'StoreSecret',
          data: { workspace_id: principal.workspaceId, name: body.name, secret_ref: ref, hint: secretHint(body.value) },
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

    /** A secret's value, for the workflow runner's http_request nodes only: no route returns it. */
    async valueOf(workspaceId: string, name: string): Promise<string | undefined> {
      const doc = await ctx.readModels.get<SecretDoc>('secrets', secretKey(workspaceId, name));
      if (!doc || doc.workspace_id !== workspaceId) return undefined;
      return (await secrets.get(workspaceId, doc.secret_ref)) ?? undefined;
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
