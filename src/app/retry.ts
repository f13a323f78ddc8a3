import { ConcurrencyError } from '../ports/event-store.ts';

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

/**
 * How a command that lost a race is decided again: a few attempts, each after a jittered wait, so
 * writers that collided do not collide again in step. Conflicts are rare and short (two appends
 * to one stream at once), hence short waits.
 */
export const CONFLICT_RETRY: Backoff = { attempts: 5, baseMs: 5, maxMs: 100 };

export type RetryClock = { wait?: (ms: number) => Promise<void>; random?: () => number };

/**
 * Runs `attempt` (numbered from 1) again after a ConcurrencyError, at most `policy.attempts` times
 * in all; the last conflict, or any other error, goes to the caller. Each attempt must read what it
 * decides on afresh: that is what makes trying again worth it.
 */
export async function retryOnConflict<T>(attempt: (n: number) => Promise<T>, policy: Backoff = CONFLICT_RETRY, { wait = sleep, random = Math.random }: RetryClock = {}): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || n >= policy.attempts) throw error;
      await wait(backoffDelay(n, policy, random));
    }
  }
}
