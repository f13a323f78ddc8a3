import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyDoc, ApiKeyHashDoc } from '../../../projections/api-keys/index.ts';
import type { ApiKeyScope } from '../../../schemas/events/api-key.ts';
import { apiKeyDecider, keyValidity } from '../../domain/api-key/api-key.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import { unauthenticated } from '../errors.ts';
import { findPage, type PageRequest } from './paging.ts';
import type { Principal } from './principal.ts';

export type NewKey = {
  name: string;
  scopes: ApiKeyScope[];
  knowledge_base_ids: string[] | null;
  expires_at: string | null;
};

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export const generateSecret = () => `kbqa-${randomBytes(32).toString('base64url')}`;

/** The public face of a key: never its hash. */
export function presentKey({ hash: _hash, workspace_id: _ws, ...visible }: ApiKeyDoc) {
  return visible;
}

/**
 * Registers a key whose secret only the caller will ever see. `keyId` is given for keys that
 * must be created once however often start-up runs (the bootstrap admin key).
 */
export async function createApiKey(
  ctx: AppContext,
  workspaceId: string,
  key: NewKey,
  options: { secret?: string; keyId?: string; actor?: string; correlationId?: string } = {},
) {
  const secret = options.secret ?? generateSecret();
  const keyId = options.keyId ?? ctx.newId('key');
  const result = await handleCommand(ctx.store, apiKeyDecider, keyId, {
    type: 'CreateApiKey',
    data: { key_id: keyId, workspace_id: workspaceId, hash: hashSecret(secret), prefix: secret.slice(0, 12), ...key },
    metadata: commandMetadata(ctx, options.actor, options.correlationId),
  });
  await settled(ctx, result.position);
  const doc = await ctx.readModels.get<ApiKeyDoc>('api_keys', keyId);
  return { key: presentKey(doc!), secret };
}

export async function revokeApiKey(ctx: AppContext, principal: Principal, keyId: string, correlationId?: string) {
  const result = await handleCommand(ctx.store, apiKeyDecider, keyId, {
    type: 'RevokeApiKey',
    data: { key_id: keyId, workspace_id: principal.workspaceId },
    metadata: commandMetadata(ctx, principal.keyId, correlationId),
  });
  await settled(ctx, result.position);
}

export function listApiKeys(ctx: AppContext, principal: Principal, page: PageRequest) {
  return findPage(ctx.readModels, 'api_keys', { workspace_id: principal.workspaceId, revoked_at: null }, page, presentKey);
}

/** Bearer token → principal. Unknown, revoked and expired keys are told apart for the client's sake. */
export async function authenticate(ctx: AppContext, token: string): Promise<Principal> {
  const hash = hashSecret(token);
  const entry = await ctx.readModels.get<ApiKeyHashDoc>('api_key_hashes', hash);
  const key = entry && (await ctx.readModels.get<ApiKeyDoc>('api_keys', entry.key_id));
  if (!key || !timingSafeEqual(Buffer.from(key.hash, 'hex'), Buffer.from(hash, 'hex'))) {
    throw unauthenticated('invalid_api_key', 'Incorrect API key provided.');
  }
  const validity = keyValidity(key, ctx.now().getTime());
  if (validity === 'revoked') throw unauthenticated('api_key_revoked', 'This API key has been revoked.');
  if (validity === 'expired') throw unauthenticated('api_key_expired', 'This API key has expired.');
  return { keyId: key.id, workspaceId: key.workspace_id, scopes: key.scopes, knowledgeBaseIds: key.knowledge_base_ids };
}
