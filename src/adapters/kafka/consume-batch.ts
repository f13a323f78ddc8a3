import type { EachBatchPayload } from 'kafkajs';
import type { Backoff } from '../../lib/retry.ts';
import type { ConsumerGroup } from '../../ports/event-bus.ts';
import type { RecordedEvent } from '../../ports/event-store.ts';
import { afterFailure, committable, type Entry, planSegments, type Segment } from './delivery.ts';
import { decodeEvent, eventTypeOf, type IncomingMessage } from './messages.ts';

/** The part of kafkajs's eachBatch payload this uses, so tests can drive it without a broker. */
export type BatchControl = Pick<EachBatchPayload, 'resolveOffset' | 'heartbeat' | 'commitOffsetsIfNecessary' | 'isRunning' | 'isStale'> & {
  batch: { topic: string; partition: number; highWatermark: string; messages: IncomingMessage[] };
};

export type Where = { topic: string; partition: number; offset: string };

export type BatchDeps = {
  group: ConsumerGroup;
  backoff: Backoff;
  /** How often to heartbeat while a handler runs or a retry waits (kafkajs heartbeats only between batches). */
  heartbeatMs: number;
  /** Dead-letters the event for good (and reports it); rejects if it could not: the batch then stops uncommitted. */
  park(event: RecordedEvent, error: unknown, where: Where): Promise<void>;
  /** Dead-letters a message that cannot be read, as it is (onError reports it); rejects as `park` does. */
  parkUnreadable(message: IncomingMessage, error: unknown, where: Where): Promise<void>;
  /** The partition's progress, before work starts (null) and after each commit. */
  progress(topic: string, partition: number, committed: { position: bigint | null; caughtUp: boolean } | null): Promise<void>;
  /** Messages that cannot be read; a retried failure is not reported, as the in-process bus does not. */
  onError(error: unknown): void;
  random?: () => number;
};

/** Raised inside the batch when the consumer is stopping or the partition was taken away. */
class Interrupted extends Error {}

/** An entry with, for a message the group should have had but cannot read, why (it is dead-lettered as it is). */
type ReadEntry = Entry & { unreadable?: { error: unknown } };

/**
 * One fetched batch of one partition: hand its events to the group in slices, retry and isolate
 * failures, park poison and unreadable messages, and commit after every slice exactly the entries that are done.
 */
export async function consumeBatch(control: BatchControl, deps: BatchDeps): Promise<void> {
  const { batch } = control;
  const entries = batch.messages.map((m, i) => readEntry(m, deps, i === batch.messages.length - 1));
  const done = entries.map((e) => e.event === null && !e.unreadable);
  const pulse = keepAlive(control.heartbeat, deps.heartbeatMs);
  const live = () => control.isRunning() && !control.isStale() && pulse.failure === undefined;
  let committedThrough = -1;

  // Slices of a group with `inFlight` finish in any order: their commits go one after another.
  let committing = Promise.resolve();
  const commitDone = () => (committing = committing.then(commitPrefix));
  const commitPrefix = async () => {
    const ready = committable(entries, done);
    if (!ready || ready.last <= committedThrough) return;
    control.resolveOffset(entries[ready.last]!.offset);
    await control.commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: ready.commitOffset }] }] });
    committedThrough = ready.last;
    const caughtUp = BigInt(ready.commitOffset) >= BigInt(batch.highWatermark);
    await deps.progress(batch.topic, batch.partition, { position: ready.position, caughtUp });
  };

  const attempt = async (events: RecordedEvent[]): Promise<unknown> => {
    for (let n = 1; ; n++) {
      try {
        await deps.group.handle(events);
        return undefined;
      } catch (error) {
        if (!live()) throw new Interrupted();
        const decision = afterFailure(error, n, events.length, deps.backoff, deps.random);
        if (decision.action !== 'retry') return error;
        await pause(decision.delayMs, live);
      }
    }
  };

  const parkUnreadable = async (i: number): Promise<void> => {
    await deps.parkUnreadable(batch.messages[i]!, entries[i]!.unreadable!.error, { topic: batch.topic, partition: batch.partition, offset: entries[i]!.offset });
    done[i] = true;
  };

  const deliver = async (events: RecordedEvent[], indexes: number[]): Promise<void> => {
    const error = await attempt(events);
    if (error === undefined) {
      for (const i of indexes) done[i] = true;
      return;
    }
    if (events.length > 1) {
      for (const [k, event] of events.entries()) await deliver([event], [indexes[k]!]);
      return;
    }
    await deps.park(events[0]!, error, { topic: batch.topic, partition: batch.partition, offset: entries[indexes[0]!]!.offset });
    done[indexes[0]!] = true;
  };

  const slice = async (segment: Segment) => {
    // The slice's unreadable messages first: if the dead letter cannot be published, the batch
    // stops before the handler runs, so a redelivery does not hand the same events over twice.
    for (const i of range(segment.from, segment.to)) if (entries[i]!.unreadable) await parkUnreadable(i);
    const indexes = range(segment.from, segment.to).filter((i) => entries[i]!.event !== null);
    if (segment.events.length > 0) await deliver(segment.events, indexes);
    await commitDone();
  };

  await deps.progress(batch.topic, batch.partition, null);
  try {
    const segments = planSegments(entries, deps.group.batchSize ?? 500);
    if (deps.group.inFlight !== undefined) await slicesAtOnce(segments, deps.group.inFlight, live, slice);
    else {
      for (const segment of segments) {
        if (!live()) throw new Interrupted();
        await slice(segment);
      }
    }
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
    // A stopping consumer still owns its partitions until it leaves, so what is done is committed
    // (after a rebalance the broker refuses a commit from the old generation; after a seek we do not try).
    if (!control.isStale()) await commitDone();
  } finally {
    pulse.stop();
  }
  if (pulse.failure !== undefined) throw pulse.failure;
}

/**
 * A group with `inFlight` has its slices handled at once, up to `limit` events in hand; each is
 * committed as the prefix of finished entries grows (`committable`), so a slow slice holds the
 * commit, not the others. The batch ends once every slice started has ended: the first failure is
 * then rethrown (an Interrupted one last, so a real failure is not taken for a stop).
 */
async function slicesAtOnce(segments: Segment[], limit: number, live: () => boolean, slice: (segment: Segment) => Promise<void>): Promise<void> {
  const going = new Set<Promise<void>>();
  const failures: unknown[] = [];
  let held = 0;
  for (const segment of segments) {
    while (held > 0 && held + segment.events.length > limit && failures.length === 0) await Promise.race(going);
    if (failures.length > 0) break;
    if (!live()) {
      failures.push(new Interrupted());
      break;
    }
    const size = segment.events.length;
    held += size;
    const running: Promise<void> = slice(segment)
      .catch((error: unknown) => void failures.push(error))
      .finally(() => {
        held -= size;
        going.delete(running);
      });
    going.add(running);
  }
  await Promise.all(going);
  const failure = failures.find((error) => !(error instanceof Interrupted)) ?? failures[0];
  if (failure !== undefined) throw failure;
}

/**
 * An entry per message. The value is read only for events the group handles, and for the batch's
 * last message, whose position tells how far the partition is done (positions grow within it).
 */
function readEntry(message: IncomingMessage, deps: BatchDeps, last: boolean): ReadEntry {
  const type = eventTypeOf(message);
  const wanted = type !== undefined && (!deps.group.eventTypes || deps.group.eventTypes.has(type));
  if (!wanted && !last && type !== undefined) return { offset: message.offset, event: null, position: null };
  try {
    const event = decodeEvent(message);
    return { offset: message.offset, event: wanted ? event : null, position: event.position };
  } catch (error) {
    // Unreadable: nothing can handle it, and holding the partition for it would stop every later
    // event. One the group should have had is parked on the dead-letter topic; another type's
    // (read only for its position) is none of this group's business.
    const entry = { offset: message.offset, event: null, position: null };
    if (!wanted && type !== undefined) return entry;
    deps.onError(error);
    return { ...entry, unreadable: { error } };
  }
}

/** Heartbeats on a timer while the batch is worked on; a failure (a rebalance) ends the batch. */
function keepAlive(heartbeat: () => Promise<void>, everyMs: number) {
  let inFlight = false;
  const state: { failure: unknown; stop: () => void } = { failure: undefined, stop: () => clearInterval(timer) };
  const timer = setInterval(() => {
    if (inFlight || state.failure !== undefined) return;
    inFlight = true;
    heartbeat()
      .catch((error: unknown) => (state.failure = error ?? new Error('heartbeat failed')))
      .finally(() => (inFlight = false));
  }, everyMs);
  return state;
}

/** Waits `ms`, giving up early (Interrupted) when the batch is no longer live. */
async function pause(ms: number, live: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  for (let left = ms; left > 0; left = until - Date.now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, 50)));
    if (!live()) throw new Interrupted();
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, k) => from + k);
}
