import test from 'ava';
import { setTimeout as delay } from 'node:timers/promises';
import type { ApiKeyDoc } from '../../projections/api-keys/index.ts';
import type { AppContext } from '../../src/app/context.ts';
import { createAuthenticator, hashSecret } from '../../src/app/services/api-keys.ts';

/** Read models holding one key per token, counting the reads the authenticator makes. */
function keysFor(tokens: string[], overrides: Partial<ApiKeyDoc> = {}) {
  const docs = new Map<string, unknown>();
  tokens.forEach((token, i) => {
    const id = `key_${i}`;
    docs.set(`api_key_hashes/${hashSecret(token)}`, { key_id: id });
    const key: ApiKeyDoc = {
      id,
      object: 'api_key',
      workspace_id: 'ws_1',
      name: token,
      hash: hashSecret(token),
      prefix: token.slice(0, 8),
      scopes: ['read'],
      knowledge_base_ids: null,
      expires_at: null,
      created_at: '2025-01-01T00:00:00.000Z',
      revoked_at: null,
      ...overrides,
    };
    docs.set(`api_keys/${id}`, key);
  });
  const reads = { count: 0 };
  const readModels = {
    get: async (collection: string, id: string) => {
      reads.count++;
      return docs.get(`${collection}/${id}`) ?? null;
    },
  };
  const ctx = { readModels, now: () => new Date('2025-06-01T00:00:00.000Z') } as unknown as Pick<AppContext, 'readModels' | 'now'>;
  return { ctx, reads };
}

test('a known token is read once, then served from the cache', async (t) => {
  const { ctx, reads } = keysFor(['kbqa-a']);
  const auth = createAuthenticator(ctx);
  t.like(await auth.authenticate('kbqa-a'), { keyId: 'key_0', workspaceId: 'ws_1' });
  const afterFirst = reads.count;
  await auth.authenticate('kbqa-a');
  t.is(reads.count, afterFirst);
});

test('unknown tokens are never cached', async (t) => {
  const { ctx, reads } = keysFor([]);
  const auth = createAuthenticator(ctx);
  await t.throwsAsync(auth.authenticate('kbqa-nope'), { message: 'Incorrect API key provided.' });
  await t.throwsAsync(auth.authenticate('kbqa-nope'), { message: 'Incorrect API key provided.' });
  t.is(reads.count, 2);
});

test('past maxEntries the least recently used token goes, not the whole cache', async (t) => {
  const { ctx, reads } = keysFor(['kbqa-a', 'kbqa-b', 'kbqa-c']);
  const auth = createAuthenticator(ctx, { maxEntries: 2 });
  await auth.authenticate('kbqa-a');
  await auth.authenticate('kbqa-b');
  await auth.authenticate('kbqa-a');
  await auth.authenticate('kbqa-c');
  const before = reads.count;
  await auth.authenticate('kbqa-a');
  await auth.authenticate('kbqa-c');
  t.is(reads.count, before, 'a and c stayed');
  await auth.authenticate('kbqa-b');
  t.true(reads.count > before, 'b was read again');
});

test('evicting a key and the time to live both send the next request to the read models', async (t) => {
  const { ctx, reads } = keysFor(['kbqa-a']);
  const auth = createAuthenticator(ctx, { ttlMs: 20 });
  await auth.authenticate('kbqa-a');
  auth.evictKey('key_0');
  let before = reads.count;
  await auth.authenticate('kbqa-a');
  t.true(reads.count > before, 'read again after eviction');
  await delay(40);
  before = reads.count;
  await auth.authenticate('kbqa-a');
  t.true(reads.count > before, 'read again after the time to live');
});

test('a revoked or expired key is refused with its own code', async (t) => {
  const revoked = createAuthenticator(keysFor(['kbqa-r'], { revoked_at: '2025-02-01T00:00:00.000Z' }).ctx);
  await t.throwsAsync(revoked.authenticate('kbqa-r'), { message: 'This API key has been revoked.' });
  const expired = createAuthenticator(keysFor(['kbqa-e'], { expires_at: '2025-05-01T00:00:00.000Z' }).ctx);
  await t.throwsAsync(expired.authenticate('kbqa-e'), { message: 'This API key has expired.' });
});
