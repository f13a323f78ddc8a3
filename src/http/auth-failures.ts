import { hash } from 'node:crypto';
import type { Context } from 'koa';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../ports/api-error.ts';
import { clientAddress } from './client-address.ts';
import { type Bucket, refilled } from './rate-limit.ts';

/** How many addresses, key prefixes and known-good pairs are remembered each; the least recently seen go first. */
const MAX_ENTRIES = 10_000;
/** How long a key that worked from an address stays exempt there from a lockout. */
const KNOWN_GOOD_TTL_MS = 24 * 60 * 60 * 1000;
/** What of a key names it without giving it away: the `prefix` its listing shows (api-keys.ts). */
const PREFIX_LENGTH = 12;

/**
 * Failed API keys (unknown to the deployment), limited per client address and per key prefix:
 * a token bucket of `perMinute` failures each, refilled over the minute. While either bucket is
 * empty, a key from that address or with that prefix is refused before it is looked at, so a
 * guesser learns nothing of right or wrong. A key that already worked from that address is let
 * through all the same: a lockout someone else provokes (a neighbour behind the same NAT, a
 * stranger sending wrong keys with the admin key's prefix) does not stop a client that was
 * working, and a guess cannot become such a key while it is locked out. Successes count nothing.
 * Every map is bounded (LRU): a forgotten bucket is a full one. Each API process limits on its own.
 * `trustProxy`: the proxies in front that append to X-Forwarded-For (client-address.ts).
 */
export function createAuthFailureLimiter(perMinute: number, { now = Date.now, trustProxy = 1 }: { now?: () => number; trustProxy?: number } = {}) {
  const buckets = new LRUCache<string, Bucket>({ max: MAX_ENTRIES * 2 });
  const knownGood = new LRUCache<string, true>({ max: MAX_ENTRIES, ttl: KNOWN_GOOD_TTL_MS });
  const refillPerMs = perMinute / 60_000;

  const fill = (key: string): Bucket => refilled(buckets.get(key), perMinute, now());
  const keysOf = (address: string, token: string) => [`address:${address}`, `prefix:${token.slice(0, PREFIX_LENGTH)}`];
  const pairOf = (address: string, token: string) => `${address}\0${hash('sha256', token, 'base64url')}`;

  return {
    enabled: perMinute > 0,
    /** Whose budget a request spends: the client address every per-address limit counts (client-address.ts). */
    addressOf: (ctx: Context) => clientAddress(ctx, trustProxy),
    /** Before the key is looked at: a 429 with retry-after while its address or its prefix is locked out. */
    check(address: string, token: string) {
      const wait = Math.max(...keysOf(address, token).map((key) => (1 - fill(key).tokens) / refillPerMs));
      if (wait <= 0 || knownGood.has(pairOf(address, token))) return;
      const seconds = Math.ceil(wait / 1000);
      throw new ApiError(429, 'rate_limit_error', 'too_many_failed_authentications', `Too many requests with a wrong API key from this address or for this key; retry after ${seconds} s.`, {
        headers: { 'retry-after': String(seconds) },
      });
    },
    /** The key was unknown: one failure for its address and its prefix. */
    failed(address: string, token: string) {
      for (const key of keysOf(address, token)) {
        const bucket = fill(key);
        bucket.tokens = Math.max(0, bucket.tokens - 1);
        buckets.set(key, bucket);
      }
    },
    /** The key worked from this address: it stays exempt there. */
    succeeded(address: string, token: string) {
      knownGood.set(pairOf(address, token), true);
    },
  };
}

export type AuthFailureLimiter = ReturnType<typeof createAuthFailureLimiter>;

/**
 * Authenticates `token` by `authenticate` under the limiter (none, or one disabled: as is): refused
 * while locked out, an unknown key counted, a key that worked remembered for its address.
 */
export async function withFailureLimit<T>(limiter: AuthFailureLimiter | undefined, ctx: Context, token: string, authenticate: (token: string) => Promise<T>): Promise<T> {
  if (!limiter?.enabled) return authenticate(token);
  const address = limiter.addressOf(ctx);
  limiter.check(address, token);
  try {
    const result = await authenticate(token);
    limiter.succeeded(address, token);
    return result;
  } catch (error) {
    // Only an unknown key is a guess: a revoked or expired one is a client that has not caught up.
    if (error instanceof ApiError && error.code === 'invalid_api_key') limiter.failed(address, token);
    throw error;
  }
}
