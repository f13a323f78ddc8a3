import { ConcurrencyError } from '../ports/event-store.ts';
import { type Backoff, backoffDelay, sleep } from '../lib/retry.ts';

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
