import { workspaceDecider } from '../../domain/workspace/workspace.ts';
import { ConcurrencyError } from '../../ports/event-store.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { createApiKey, generateSecret, hashSecret } from './api-keys.ts';

export const DEFAULT_WORKSPACE = 'default';

/** Creates the workspace unless it exists; true when this call created it. */
export async function ensureWorkspace(ctx: AppContext, workspaceId: string, name = workspaceId): Promise<boolean> {
  try {
    const result = await handleCommand(ctx.store, workspaceDecider, workspaceId, {
      type: 'CreateWorkspace',
      data: { workspace_id: workspaceId, name },
      metadata: commandMetadata(ctx, 'system'),
    });
    await settled(ctx, result);
    return true;
  } catch (error) {
    if (isAlreadyThere(error)) return false;
    throw error;
  }
}

/** A new workspace with its first admin key; the secret is returned once and stored nowhere. */
export async function createWorkspaceWithAdminKey(ctx: AppContext, workspaceId: string, secret = generateSecret()) {
  const created = await ensureWorkspace(ctx, workspaceId);
  if (!created) return null;
  await createApiKey(ctx, workspaceId, adminKey('admin'), { secret, actor: 'system' });
  return secret;
}

/**
 * Start-up: with KBQA_ADMIN_KEY, make sure `default` exists and accepts that key (idempotent: the
 * key's id derives from its hash); without it, the very first start mints a key and returns it
 * to be printed, and later starts return null.
 */
export async function bootstrap(ctx: AppContext, adminSecret: string | undefined): Promise<string | null> {
  if (adminSecret === undefined) return createWorkspaceWithAdminKey(ctx, DEFAULT_WORKSPACE);
  await ensureWorkspace(ctx, DEFAULT_WORKSPACE);
  const keyId = `key_admin${hashSecret(adminSecret).slice(0, 17)}`;
  try {
    await createApiKey(ctx, DEFAULT_WORKSPACE, adminKey('bootstrap admin (KBQA_ADMIN_KEY)'), { secret: adminSecret, keyId, actor: 'system' });
  } catch (error) {
    if (!isAlreadyThere(error)) throw error;
  }
  return null;
}

const adminKey = (name: string) => ({ name, scopes: ['admin' as const], knowledge_base_ids: null, expires_at: null });

function isAlreadyThere(error: unknown) {
  return error instanceof ConcurrencyError || (error instanceof DomainError && error.kind === 'conflict');
}
