import type { EachBatchPayload } from 'kafkajs';
import type { Backoff } from '../../lib/retry.ts';
import type { ConsumerGroup } from '../../ports/event-bus.ts';
import type { RecordedEvent } from '../../ports/event-store.ts';
import { committable, type Entry, planSegments, type Segment } from './delivery.ts';
import { type HandOver, handOver, Interrupted } from './hand-over.ts';
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

/** An entry with, for a message the group should have had but cannot read, why (it is dead-lettered as it is). */
export type ReadEntry = Entry & { unreadable?: { error: unknown } };

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

  const commitPrefix = async () => {
    const ready = committable(entries, done);
    if (!ready || ready.last <= committedThrough) return;
    control.resolveOffset(entries[ready.last]!.offset);
    await control.commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: ready.commitOffset }] }] });
    committedThrough = ready.last;
    const caughtUp = BigInt(ready.commitOffset) >= BigInt(batch.highWatermark);
    await deps.progress(batch.topic, batch.partition, { position: ready.position, caughtUp });
  };

  const parkUnreadable = async (i: number): Promise<void> => {
    await deps.parkUnreadable(batch.messages[i]!, entries[i]!.unreadable!.error, { topic: batch.topic, partition: batch.partition, offset: entries[i]!.offset });
    done[i] = true;
  };

  const handing: HandOver = {
    group: deps.group,
    backoff: deps.backoff,
    live,
    park: (event, error, offset) => deps.park(event, error, { topic: batch.topic, partition: batch.partition, offset }),
    ...(deps.random && { random: deps.random }),
  };

  const slice = async (segment: Segment) => {
    // The slice's unreadable messages first: if the dead letter cannot be published, the batch
    // stops before the handler runs, so a redelivery does not hand the same events over twice.
    for (const i of range(segment.from, segment.to)) if (entries[i]!.unreadable) await parkUnreadable(i);
    const indexes = range(segment.from, segment.to).filter((i) => entries[i]!.event !== null);
    if (segment.events.length > 0) await handOver(segment.events, indexes.map((i) => entries[i]!.offset), handing, (k) => (done[indexes[k]!] = true));
    await commitPrefix();
  };

  await deps.progress(batch.topic, batch.partition, null);
  try {
    for (const segment of planSegments(entries, deps.group.batchSize ?? 500)) {
      if (!live()) throw new Interrupted();
      await slice(segment);
    }
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
    // A stopping consumer still owns its partitions until it leaves, so what is done is committed
    // (after a rebalance the broker refuses a commit from the old generation; after a seek we do not try).
    if (!control.isStale()) await commitPrefix();
  } finally {
    pulse.stop();
  }
  if (pulse.failure !== undefined) throw pulse.failure;
}

/**
 * An entry per message. The value is read only for events the group handles, and for the batch's
 * last message, whose position tells how far the partition is done (positions grow within it).
 */
export function readEntry(message: IncomingMessage, deps: Pick<BatchDeps, 'group' | 'onError'>, last: boolean): ReadEntry {
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

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, k) => from + k);
}
