import { createHash } from 'node:crypto';
import { idempotencyDecider } from '../../domain/document/idempotency.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata } from '../context.ts';
import type { Principal } from './principal.ts';

const streamKey = (principal: Principal, key: string) =>
  `${principal.workspaceId}-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;

/** Null when this request is the first with the key; the earlier result's ids when it is a retry. */
export async function claimIdempotencyKey(ctx: AppContext, principal: Principal, key: string, fingerprint: string) {
  const result = await handleCommand(ctx.store, idempotencyDecider, streamKey(principal, key), {
    type: 'ClaimKey',
    data: { workspace_id: principal.workspaceId, key, fingerprint },
    metadata: commandMetadata(ctx, principal.keyId),
  });
  return result.state.status === 'completed' && result.events.length === 0 ? { resourceIds: result.state.resourceIds } : null;
}

export async function completeIdempotencyKey(ctx: AppContext, principal: Principal, key: string, status: number, resourceIds: string[]) {
  await handleCommand(ctx.store, idempotencyDecider, streamKey(principal, key), {
    type: 'CompleteKey',
    data: { workspace_id: principal.workspaceId, key, status, resource_ids: resourceIds },
    metadata: commandMetadata(ctx, principal.keyId),
  });
}
