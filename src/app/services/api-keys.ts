import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ApiKeyDoc, ApiKeyHashDoc } from '../../../projections/api-keys/index.ts';
import type { ApiKeyScope } from '../../../schemas/events/api-key.ts';
import type { ApiKey } from '../../../schemas/http/api-keys.ts';
import { apiKeyDecider, keyValidity } from '../../domain/api-key/api-key.ts';
import { handleCommand } from '../command-handler.ts';
import { type AppContext, commandMetadata, settled } from '../context.ts';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import { resourceNotFound, unauthenticated } from '../errors.ts';
import { findPage, type PageRequest } from './paging.ts';
import { type Principal, requireKnowledgeBasesAccess, visibleTo } from './principal.ts';

export type NewKey = {
  name: string;
  scopes: ApiKeyScope[];
  knowledge_base_ids: string[] | null;
  expires_at: string | null;
};

export const hashSecret = (secret: string) => hash('sha256', secret, 'hex');

export const generateSecret = () => `kbqa-${randomBytes(32).toString('base64url')}`;

/** The public face of a key: never its hash. */
export function presentKey({ hash: _hash, workspace_id: _ws, ...visible }: ApiKeyDoc): ApiKey {
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
  await settled(ctx, result);
  const doc = await ctx.readModels.get<ApiKeyDoc>('api_keys', keyId);
  return { key: presentKey(doc!), secret };
}

/**
 * A key made through the API: it reaches no further than its maker (a key limited to knowledge
 * bases makes keys limited to some of those), and every knowledge base it names exists here.
 */
export async function createApiKeyFor(ctx: AppContext, principal: Principal, key: NewKey, correlationId?: string) {
  requireKnowledgeBasesAccess(principal, key.knowledge_base_ids);
  for (const id of key.knowledge_base_ids ?? []) {
    const kb = await ctx.readModels.get<KnowledgeBaseDoc>('knowledge_bases', id);
    if (!kb || kb.workspace_id !== principal.workspaceId) {
      throw resourceNotFound('knowledge_base', id, 'knowledge_base_ids');
    }
  }
  return createApiKey(ctx, principal.workspaceId, key, { actor: principal.keyId, correlationId });
}

/** Revokes a key of the caller's workspace that reaches no further than the caller's own. */
export async function revokeApiKey(ctx: AppContext, principal: Principal, keyId: string, correlationId?: string) {
  if (principal.knowledgeBaseIds !== null) {
    const key = await ctx.readModels.get<ApiKeyDoc>('api_keys', keyId);
    if (key && key.workspace_id === principal.workspaceId) requireKnowledgeBasesAccess(principal, key.knowledge_base_ids);
  }
  const result = await handleCommand(ctx.store, apiKeyDecider, keyId, {
    type: 'RevokeApiKey',
    data: { key_id: keyId, workspace_id: principal.workspaceId },
    metadata: commandMetadata(ctx, principal.keyId, correlationId),
  });
  await settled(ctx, result);
}

export function listApiKeys(ctx: AppContext, principal: Principal, page: PageRequest) {
  const visible = visibleTo(principal, (key: ApiKeyDoc) => key.knowledge_base_ids);
  return findPage(ctx.readModels, 'api_keys', { workspace_id: principal.workspaceId, revoked_at: null }, page, { present: presentKey, visible });
}

type CachedKey = { principal: Principal; hash: Buffer; revoked: boolean; expiresAtMs: number | null };

/**
 * Bearer token → principal. A token seen before is found by a Map lookup in the LRU cache (V8
 * hashes strings with a per-process seed, so the lookup's timing says nothing useful about other
 * keys); a new token is hashed and checked against the stored hash in constant time. The
 * projector evicts a key the moment this process applies its revocation, and `ttlMs` bounds how
 * long a change made through another process can go unseen; past `maxEntries` the least recently
 * used token goes. Unknown tokens are never cached.
 */
export function createAuthenticator(ctx: Pick<AppContext, 'readModels' | 'now'>, { ttlMs = 5000, maxEntries = 10_000 } = {}) {
  const cache = new LRUCache<string, CachedKey>({ max: maxEntries, ttl: ttlMs });

  async function verify(token: string): Promise<CachedKey | null> {
    const digest = hash('sha256', token, 'buffer') as unknown as Buffer;
    const hashHex = digest.toString('hex');
    const entry = await ctx.readModels.get<ApiKeyHashDoc>('api_key_hashes', hashHex);
    const key = entry && (await ctx.readModels.get<ApiKeyDoc>('api_keys', entry.key_id));
    if (!key) return null;
    const cached: CachedKey = {
      principal: { keyId: key.id, workspaceId: key.workspace_id, scopes: key.scopes, knowledgeBaseIds: key.knowledge_base_ids },
      hash: Buffer.from(key.hash, 'hex'),
      revoked: key.revoked_at !== null,
      expiresAtMs: key.expires_at === null ? null : Date.parse(key.expires_at),
    };
    if (!timingSafeEqual(cached.hash, digest)) return null;
    cache.set(token, cached);
    return cached;
  }

  return {
    async authenticate(token: string): Promise<Principal> {
      const key = cache.get(token) ?? (await verify(token));
      if (!key) throw unauthenticated('invalid_api_key', 'Incorrect API key provided.');
      const validity = keyValidity(key, ctx.now().getTime());
      if (validity === 'revoked') throw unauthenticated('api_key_revoked', 'This API key has been revoked.');
      if (validity === 'expired') throw unauthenticated('api_key_expired', 'This API key has expired.');
      return key.principal;
    },
    evictKey(keyId: string) {
      const tokens = [...cache.entries()].filter(([, entry]) => entry.principal.keyId === keyId).map(([token]) => token);
      for (const token of tokens) cache.delete(token);
    },
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
