import type { EventEmitter } from 'node:events';
import type { AllStreamResolvedEvent, EventStoreDBClient } from '@eventstore/db-client';
import { type Backoff, backoffDelay } from '../../lib/retry.ts';
import type { RecordedEvent, SubscribeOptions, Subscription } from '../../ports/event-store.ts';
import { allPositionOf, checkpointHolds, classifyError, knownCommit, readThroughAfterProbe, subscriptionFilter, toEsdbPosition, toRecordedEvent } from './mapping.ts';

type TailOptions = {
  client: EventStoreDBClient;
  from: bigint;
  onEvents: (batch: RecordedEvent[], upTo: bigint) => Promise<void>;
  options: SubscribeOptions;
  /** Emits 'append' after this store appended. */
  appended: EventEmitter;
  probeIntervalMs: number;
};

const RESUBSCRIBE: Backoff = { attempts: Number.POSITIVE_INFINITY, baseMs: 100, maxMs: 5000 };
// Quiet time after activity before probing, so the subscription first delivers what it is about to.
const SETTLE_MS = 20;
// A probe covers the tail the server has not checkpointed yet: its default window is 32 events.
const PROBE_LIMIT = 64;

const max = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * Catch up on $all from a position, then follow it live, through the server's filtered
 * subscription. Batches wait for the handler (the client's buffer fills, then gRPC flow control
 * holds the server). On any failure, the handler's included, it resubscribes from the last
 * position the handler finished, after a backoff: at least once, never a gap.
 */
export function tailAll({ client, from, onEvents, options, appended, probeIntervalMs }: TailOptions): Subscription {
  const { batchSize = 500, eventTypes, onError } = options;
  let delivered = from;
  let stopped = false;
  let failures = 0;
  // Something arrived or was appended since the last probe: probe soon rather than at the next interval.
  let stirred = false;
  let wake: (() => void) | null = null;
  const nudge = () => wake?.();
  const onAppend = () => {
    stirred = true;
    nudge();
  };
  appended.on('append', onAppend);

  /** Resolves true when `ms` ran out, false when nudged first. */
  const idle = (ms?: number) =>
    new Promise<boolean>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => resolve(true), ms);
      wake = () => {
        clearTimeout(timer);
        resolve(false);
      };
    }).finally(() => {
      wake = null;
    });

  const wanted = (event: RecordedEvent | null): event is RecordedEvent => event !== null && (!eventTypes || eventTypes.has(event.type));

  /** The first events of $all from `position` on, each with whether this subscription delivers it. */
  const readFrom = async (position: bigint, maxCount: number) => {
    const events: { position: bigint; wanted: boolean }[] = [];
    for await (const resolved of client.readAll({ fromPosition: toEsdbPosition(position), maxCount })) {
      events.push({ position: allPositionOf(resolved), wanted: wanted(toRecordedEvent(resolved)) });
    }
    return events;
  };

  // A failed check only keeps `upTo` where it was; the subscription itself reports a dead server.
  const checked = async (check: () => Promise<bigint>, fallback: bigint) => {
    try {
      return await check();
    } catch (error) {
      onError?.(error);
      return fallback;
    }
  };

  const verifiedCheckpoint = (checkpoint: bigint, readThrough: bigint) =>
    checked(async () => (checkpointHolds(checkpoint, (await readFrom(checkpoint, 1))[0]) ? checkpoint : readThrough), readThrough);

  // The server reports a checkpoint only once it has examined a whole window of events, and none
  // for the last page it read before going live; so an idle filtered subscription reads the tail
  // itself to move `upTo` past what it will never deliver.
  const probe = (readThrough: bigint) => checked(async () => readThroughAfterProbe(readThrough, await readFrom(readThrough, PROBE_LIMIT)), readThrough);

  /** One server subscription from `delivered`: returns once stopped, throws when it fails. */
  const follow = async () => {
    let readThrough = delivered;
    let batch: RecordedEvent[] = [];
    let taken = 0;
    const checkpoints: { position: bigint; after: number }[] = [];
    let failure: unknown;
    let ended = false;
    const filter = subscriptionFilter(eventTypes, (subscription, position) => {
      // The client calls this between two server messages, so it covers what is already buffered
      // and holds once those are taken; the server sends it after the events it covers.
      const commit = knownCommit(position);
      if (commit !== undefined) checkpoints.push({ position: commit, after: taken + subscription.readableLength });
      nudge();
    });
    const subscription = client.subscribeToAll({ fromPosition: toEsdbPosition(delivered), filter }, { highWaterMark: batchSize });
    const onEnd = () => {
      ended = true;
      nudge();
    };
    subscription.on('readable', nudge).on('end', onEnd);
    // Stays attached after cleanup: an error emitted late must not go unhandled.
    subscription.on('error', (error) => {
      failure ??= error;
      nudge();
    });
    try {
      // Every await below is followed by a fresh read(): a 'readable' emitted meanwhile is not lost.
      while (!stopped) {
        if (checkpoints[0] && checkpoints[0].after <= taken) {
          // Of the checkpoints due, only the furthest is worth a check (one read, however fast they come).
          let position = 0n;
          while (checkpoints[0] && checkpoints[0].after <= taken) position = max(position, checkpoints.shift()!.position);
          if (position > readThrough) readThrough = await verifiedCheckpoint(position, readThrough);
          continue;
        }
        const resolved = batch.length < batchSize ? (subscription.read() as AllStreamResolvedEvent | null) : null;
        if (resolved !== null) {
          taken += 1;
          stirred = true;
          readThrough = max(readThrough, allPositionOf(resolved));
          const event = toRecordedEvent(resolved);
          if (wanted(event)) batch.push(event);
          continue;
        }
        if (batch.length > 0 || readThrough > delivered) {
          if (stopped) break;
          await onEvents(batch, readThrough);
          batch = [];
          delivered = readThrough;
          failures = 0;
          continue;
        }
        if (failure !== undefined) throw failure;
        if (ended) throw new Error('EventStoreDB ended the subscription to $all');
        if (!eventTypes) await idle();
        else if (await idle(stirred ? SETTLE_MS : probeIntervalMs)) {
          stirred = false;
          readThrough = max(readThrough, await probe(readThrough));
        }
      }
    } finally {
      subscription.off('readable', nudge).off('end', onEnd);
      await subscription.unsubscribe().catch(() => {});
      subscription.destroy();
    }
  };

  const backOff = async (ms: number) => {
    const until = Date.now() + ms;
    while (!stopped && Date.now() < until) await idle(until - Date.now());
  };

  const done = (async () => {
    while (!stopped) {
      try {
        await follow();
      } catch (error) {
        if (stopped) break;
        onError?.(error);
        failures += 1;
        await backOff(classifyError(error) === 'permanent' ? RESUBSCRIBE.maxMs : backoffDelay(failures, RESUBSCRIBE));
      }
    }
  })().finally(() => appended.off('append', onAppend));

  return {
    async stop() {
      stopped = true;
      nudge();
      await done;
    },
  };
}
