import { type Backoff, backoffDelay } from '../../lib/retry.ts';
import type { CheckpointStore } from '../../ports/event-bus.ts';
import type { EventStore, RecordedEvent, Subscription } from '../../ports/event-store.ts';
import { encodeEvent, type Publisher } from './messages.ts';
import { CONTRACT_TOPICS, type TopicMap } from './topics.ts';
import { createPositionWaiters } from '../../lib/position-waiters.ts';

export const RELAY_CHECKPOINT = 'relay';

export type RelayOptions = {
  store: EventStore;
  publisher: Publisher;
  checkpoints: CheckpointStore;
  topics?: TopicMap;
  batchSize?: number;
  /** Between attempts of a publish or checkpoint that failed; `attempts` is ignored: the relay never gives up. */
  backoff?: Omit<Backoff, 'attempts'>;
  onError?: (error: unknown) => void;
};

export type Relay = {
  /** The relay's checkpoint: every event at or below it was acknowledged by the broker. */
  position(): bigint;
  waitFor(position: bigint, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
};

class Stopped extends Error {}

/**
 * Publishes the global log, in order, to the topics of its streams. The checkpoint is written
 * only after the broker acknowledged a whole batch, so a crash republishes (consumers are
 * idempotent) but never skips; a failed publish is retried until it succeeds or the relay stops.
 */
export async function createRelay({ store, publisher, checkpoints, topics = CONTRACT_TOPICS, batchSize = 500, backoff = { baseMs: 100, maxMs: 10_000 }, onError = () => {} }: RelayOptions): Promise<Relay> {
  let position = await checkpoints.load(RELAY_CHECKPOINT);
  const stopping = new AbortController();
  const waiters = createPositionWaiters('relay', () => position);

  const untilDone = async (work: () => Promise<void>) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (stopping.signal.aborted) throw new Stopped();
        onError(error);
        await sleep(backoffDelay(attempt, { attempts: Infinity, ...backoff }), stopping.signal);
        if (stopping.signal.aborted) throw new Stopped();
      }
    }
  };

  const relayBatch = async (batch: RecordedEvent[], upTo: bigint) => {
    if (batch.length > 0) await untilDone(() => publisher.publish(batch.map((event) => encodeEvent(event, topics.ofStream(event.streamId)))));
    await untilDone(() => checkpoints.save(RELAY_CHECKPOINT, upTo));
    position = upTo;
    restarts = 0;
    waiters.settle();
  };

  let restarts = 0;
  let subscription: Subscription;
  const follow = () => {
    subscription = store.subscribeToAll(position, relayBatch, {
      batchSize,
      onError: (error) => {
        if (error instanceof Stopped || stopping.signal.aborted) return;
        onError(error);
        // A lost connection ends a subscription: follow the log again from the checkpoint, once
        // the old one has surely stopped (two would publish side by side).
        const ended = subscription;
        void ended
          .stop()
          .then(() => sleep(backoffDelay(++restarts, { attempts: Infinity, ...backoff }), stopping.signal))
          .then(() => stopping.signal.aborted || follow());
      },
    });
  };
  follow();

  return {
    position: () => position,
    waitFor: (target, timeoutMs) => waiters.waitFor(target, timeoutMs),
    async stop() {
      stopping.abort();
      await subscription.stop();
      waiters.rejectAll('stopped');
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
