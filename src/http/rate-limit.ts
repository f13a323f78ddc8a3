import { ApiError } from '../ports/api-error.ts';

export type Bucket = { tokens: number; updatedAt: number };

/** A bucket of `perMinute` tokens as of `t`, refilled since it was last seen (a new one is full); the caller keeps it. */
export function refilled(bucket: Bucket | undefined, perMinute: number, t: number): Bucket {
  const { tokens, updatedAt } = bucket ?? { tokens: perMinute, updatedAt: t };
  return { tokens: Math.min(perMinute, tokens + ((t - updatedAt) * perMinute) / 60_000), updatedAt: t };
}

export type RateDecision = { headers: Record<string, string>; allowed: boolean; retryAfterSeconds: number };

/**
 * A token bucket per API key: `perMinute` requests a minute on average, bursts up to `perMinute`.
 * Kept in process memory: each API process limits on its own.
 */
export function createRateLimiter(perMinute: number, now: () => number = Date.now) {
  const buckets = new Map<string, Bucket>();
  const refillPerMs = perMinute / 60_000;
  const limit = String(perMinute);

  function take(key: string): RateDecision {
    const bucket = refilled(buckets.get(key), perMinute, now());
    buckets.set(key, bucket);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    const retryAfterSeconds = allowed ? 0 : Math.ceil((1 - bucket.tokens) / refillPerMs / 1000);
    const resetMs = Math.ceil((perMinute - bucket.tokens) / refillPerMs);
    return {
      allowed,
      retryAfterSeconds,
      headers: {
        'x-ratelimit-limit-requests': limit,
        'x-ratelimit-remaining-requests': String(Math.floor(bucket.tokens)),
        // OpenAI's duration format: time until the bucket is full again.
        'x-ratelimit-reset-requests': `${resetMs}ms`,
      },
    };
  }

  return {
    enabled: perMinute > 0,
    /** Gives back what `check` took, for a caller that counts only some outcomes (wrong access codes, not right ones). */
    refund(key: string) {
      const bucket = buckets.get(key);
      if (bucket) bucket.tokens = Math.min(perMinute, bucket.tokens + 1);
    },
    /** Throws a 429 carrying retry-after when the key's bucket is empty. */
    check(key: string): Record<string, string> {
      const decision = take(key);
      if (decision.allowed) return decision.headers;
      throw new ApiError(429, 'rate_limit_error', 'rate_limit_exceeded', `Rate limit of ${perMinute} requests per minute reached; retry after ${decision.retryAfterSeconds} s.`, {
        headers: { ...decision.headers, 'retry-after': String(decision.retryAfterSeconds) },
      });
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
