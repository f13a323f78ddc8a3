import type { Backoff } from '../../lib/retry.ts';
import type { ConsumerGroup } from '../../ports/event-bus.ts';
import type { RecordedEvent } from '../../ports/event-store.ts';
import { afterFailure } from './delivery.ts';

/** Raised inside a delivery when the consumer is stopping or the partition was taken away. */
export class Interrupted extends Error {}

export type HandOver = {
  group: ConsumerGroup;
  backoff: Backoff;
  /** False once the consumer stops or the partition is no longer this delivery's: it ends Interrupted. */
  live(): boolean;
  /** Dead-letters the event at `offset` for good; rejects if it could not, and the delivery with it. */
  park(event: RecordedEvent, error: unknown, offset: string): Promise<void>;
  random?: () => number;
};

/**
 * Hands `events` (at `offsets`) to the group: retries while the failure may pass, then splits the
 * batch to find the poison event and parks that one. `done(k)` is told of each event handled or
 * parked; what is not done when it rejects (Interrupted, or a dead letter that could not be
 * published) stays uncommitted, so Kafka delivers it again.
 */
export async function handOver(events: RecordedEvent[], offsets: string[], h: HandOver, done: (k: number) => void): Promise<void> {
  const error = await attempt(events, h);
  if (error === undefined) {
    for (const k of events.keys()) done(k);
    return;
  }
  if (events.length > 1) {
    for (const [k, event] of events.entries()) await handOver([event], [offsets[k]!], h, () => done(k));
    return;
  }
  await h.park(events[0]!, error, offsets[0]!);
  done(0);
}

/** Undefined once the group handled the events; otherwise the failure to isolate or park. */
async function attempt(events: RecordedEvent[], h: HandOver): Promise<unknown> {
  for (let n = 1; ; n++) {
    try {
      await h.group.handle(events);
      return undefined;
    } catch (error) {
      if (!h.live()) throw new Interrupted();
      const decision = afterFailure(error, n, events.length, h.backoff, h.random);
      if (decision.action !== 'retry') return error;
      await pause(decision.delayMs, h.live);
    }
  }
}

/** Waits `ms`, giving up early (Interrupted) when the delivery is no longer live. */
async function pause(ms: number, live: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  for (let left = ms; left > 0; left = until - Date.now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, 50)));
    if (!live()) throw new Interrupted();
  }
}
