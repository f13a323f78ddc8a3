/**
 * When a failed attempt is tried again, and after how long. A 429 means the request was refused
 * before it ran, so any call may repeat it; a 5xx or a lost connection may hide a request that
 * ran, so only idempotent calls repeat those (GET, PUT, DELETE, and POSTs carrying an
 * Idempotency-Key, which the server deduplicates).
 */

export type RetryPolicy = {
  maxRetries: number;
  /** First backoff; doubles per attempt, with jitter. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A `retry-after` longer than this is not waited for: the error is thrown instead. */
  maxRetryAfterMs: number;
};

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export function isIdempotent(method: string, headers: Record<string, string>): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase()) || Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
}

/** Whether a response with this status (and error code) is worth another attempt. */
export function retryableStatus(status: number, code: string | null, idempotent: boolean): boolean {
  if (status === 429) return true;
  if (!idempotent) return false;
  // The first request with this Idempotency-Key is still running: its result will be there shortly.
  if (status === 409 && code === 'idempotency_key_in_progress') return true;
  return status === 408 || status === 500 || status === 502 || status === 503 || status === 504;
}

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const ms = Number(headers.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Exponential backoff with jitter: attempt 0 waits 50–100 % of the initial delay, and so on. */
export function backoffMs(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  return Math.round(ceiling * (0.5 + random() / 2));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
