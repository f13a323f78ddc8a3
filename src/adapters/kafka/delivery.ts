import { type Backoff, backoffDelay, isRetriable } from '../../lib/retry.ts';
import type { RecordedEvent } from '../../ports/event-store.ts';

/**
 * Retriable unless it says otherwise: our PermanentError and kafkajs's non-retriable errors carry
 * `retriable: false`. kafkajs gives up with KafkaJSNumberOfRetriesExceeded (also marked
 * non-retriable) when its own retries of a retriable cause ran out: that is an outage, not bad
 * data, so it is judged by its cause.
 */
export function isRetriableFailure(error: unknown): boolean {
  if (error instanceof Error && error.name === 'KafkaJSNumberOfRetriesExceeded') return error.cause === undefined || isRetriableFailure(error.cause);
  return isRetriable(error);
}

export type Decision = { action: 'retry'; delayMs: number } | { action: 'isolate' } | { action: 'park' };

/**
 * What to do after the `attempt`-th delivery of a batch of `size` events failed: back off and
 * retry while the error may pass; then split a batch to find the poison event; park a single one.
 */
export function afterFailure(error: unknown, attempt: number, size: number, backoff: Backoff, random: () => number = Math.random): Decision {
  if (isRetriableFailure(error) && attempt < backoff.attempts) return { action: 'retry', delayMs: backoffDelay(attempt, backoff, random) };
  return size > 1 ? { action: 'isolate' } : { action: 'park' };
}

/** One message of a fetched batch; `event` is null for one the group passes over (another type, or unreadable). */
export type Entry = { offset: string; event: RecordedEvent | null; position: bigint | null };

/** Entries `from..to` (inclusive); `events` are handed to the group together. */
export type Segment = { from: number; to: number; events: RecordedEvent[] };

/**
 * Cuts a fetched batch into handler batches of at most `batchSize` events. The entries passed
 * over ride with the segment before them (the first segment also takes those that lead), so every
 * entry belongs to exactly one segment and is committed with it.
 */
export function planSegments(entries: readonly Entry[], batchSize: number): Segment[] {
  const segments: Segment[] = [];
  let current: Segment | null = null;
  for (const [i, entry] of entries.entries()) {
    if (entry.event && current && current.events.length >= batchSize) {
      segments.push(current);
      current = null;
    }
    current ??= { from: i, to: i, events: [] };
    current.to = i;
    if (entry.event) current.events.push(entry.event);
  }
  if (current) segments.push(current);
  return segments;
}

/** Where a partition stands after some of its entries were handled, parked or passed over. */
export type Committable = { last: number; commitOffset: string; position: bigint | null };

/**
 * The longest run of done entries from the start of the batch: Kafka's committed offset is the
 * next one to read, so it may pass only entries that were handled, parked or passed over.
 * `position` is the highest global position among them (unknown for entries passed over unread).
 */
export function committable(entries: readonly Entry[], done: readonly boolean[]): Committable | null {
  let last = -1;
  let position: bigint | null = null;
  for (let i = 0; i < entries.length && done[i]; i++) {
    last = i;
    const p = entries[i]!.position;
    if (p !== null && (position === null || p > position)) position = p;
  }
  if (last < 0) return null;
  return { last, commitOffset: (BigInt(entries[last]!.offset) + 1n).toString(), position };
}

/** How a failure is recorded with a parked event and its dead letter. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
