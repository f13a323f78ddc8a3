/**
 * Retrying, as every layer does it: what may be tried again and how long to wait. The app's
 * commands (app/conflict-retry.ts), the buses and the provider adapters all use it.
 */

/** An error that no retry can fix (bad data, a rule broken): consumers park it at once. */
export class PermanentError extends Error {
  override readonly name = 'PermanentError';
  readonly retriable = false;
}

export function isRetriable(error: unknown): boolean {
  return !(error && typeof error === 'object' && 'retriable' in error && error.retriable === false);
}

export type Backoff = { attempts: number; baseMs: number; maxMs: number };

/** Exponential backoff with full jitter: attempt 1 waits up to base, attempt n up to base·2^(n-1), capped. */
export function backoffDelay(attempt: number, { baseMs, maxMs }: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling * random());
}

export function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}
