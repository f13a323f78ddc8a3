import type { ConsumerConfig, Kafka } from 'kafkajs';
import type { Backoff } from '../../lib/retry.ts';
import type { CheckpointStore, ConsumerGroup, EventBus, GroupHandle } from '../../ports/event-bus.ts';
import type { RecordedEvent } from '../../ports/event-store.ts';
import { type BatchDeps, consumeBatch, type Where } from './consume-batch.ts';
import { describeError } from './delivery.ts';
import { createGroupProgress } from './group-position.ts';
import { createPipeline } from './pipeline.ts';
import { encodeDeadLetter, encodeUnreadableDeadLetter, type IncomingMessage, type Publisher } from './messages.ts';
import { CONTRACT_TOPICS, type TopicMap } from './topics.ts';
import { createPositionWaiters } from '../../lib/position-waiters.ts';

export type KafkaBusOptions = {
  kafka: Kafka;
  /** Mirrors each group's position (GroupHandle.position) and keeps its parked events. */
  checkpoints: CheckpointStore;
  /** Sends dead letters; resolves once the broker has them. */
  publisher: Publisher;
  topics?: TopicMap;
  /** Before each group id (`kbqa.<group>`), as the topics' namespace is before each topic. */
  groupPrefix?: string;
  backoff?: Backoff;
  now?: () => Date;
  onError?: (group: string, error: unknown) => void;
  /** kafkajs consumer settings (session timeout, fetch sizes …); the group id is the bus's own. */
  consumer?: Omit<ConsumerConfig, 'groupId'>;
};

export const groupIdOf = (name: string) => `kbqa.${name}`;

/**
 * kafkajs's default session is 30 s: a member killed without leaving (kill -9, a lost host) keeps
 * its partitions that long. 10 s moves them in about 10–13 s (test/http/kafka-rebalance.http.test.ts)
 * and is still far above the heartbeat (3 s), which consume-batch.ts keeps sending while a handler runs.
 */
export const CONSUMER_SESSION = { sessionTimeout: 10_000, heartbeatInterval: 3000 } as const;

/**
 * Consumer groups over the relay's topics: Kafka keeps each group's offsets, committed only for
 * messages handled, parked or passed over. Partitions are worked one at a time, as the in-process
 * bus calls a group: handlers such as the projector's are not written for concurrent batches. A
 * group with `inFlight` (the runner) is pipelined (pipeline.ts): each slice of a fetched batch is
 * handed over as it is taken and the partition fetched again at once, up to `inFlight` events in
 * hand; the commit passes only the prefix that is done.
 */
export function createKafkaBus({
  kafka,
  checkpoints,
  publisher,
  topics = CONTRACT_TOPICS,
  groupPrefix = '',
  backoff = { attempts: 5, baseMs: 100, maxMs: 5000 },
  now = () => new Date(),
  onError = () => {},
  consumer: ownConfig = {},
}: KafkaBusOptions): EventBus {
  const handles = new Set<GroupHandle>();
  const consumerConfig = { ...CONSUMER_SESSION, ...ownConfig };

  async function subscribe(group: ConsumerGroup): Promise<GroupHandle> {
    const subscribed = topics.forEventTypes(group.eventTypes);
    if (subscribed.length === 0) throw new Error(`consumer group ${group.name}: no topic carries any of its event types`);
    const report = (error: unknown) => onError(group.name, error);
    const progress = createGroupProgress(await checkpoints.load(group.name));
    let position = progress.position();
    const waiters = createPositionWaiters(`consumer group ${group.name}`, () => position);

    // The checkpoint store mirrors the position for readers without the handle (metrics, restarts).
    const reach = async (next: bigint) => {
      if (next <= position) return;
      await checkpoints.save(group.name, next);
      if (next > position) position = next;
      waiters.settle();
    };

    const park = async (event: RecordedEvent, error: unknown, where: Where) => {
      report(error);
      const parkedAt = now().toISOString();
      const reason = describeError(error);
      await publisher.publish([encodeDeadLetter({ group: group.name, ...where, error: reason, parkedAt, event }, topics.deadLetter)]);
      await checkpoints.park({ group: group.name, event, error: reason, parkedAt });
      await group.onParked?.(event, error).catch(report);
    };

    // No checkpoint-store record nor onParked here: both take a recorded event, and this message
    // holds none. Its key still names the stream it belongs to: the group may fail what that holds.
    const parkUnreadable = async (message: IncomingMessage, error: unknown, where: Where) => {
      const letter = { group: group.name, ...where, error: describeError(error), parkedAt: now().toISOString() };
      await publisher.publish([encodeUnreadableDeadLetter(letter, message, topics.deadLetter)]);
      const streamId = message.key?.toString('utf8');
      if (streamId) await group.onUnreadable?.(streamId, error).catch(report);
    };

    const deps: BatchDeps = {
      group,
      backoff,
      heartbeatMs: consumerConfig.heartbeatInterval,
      park,
      parkUnreadable,
      progress: async (topic, partition, committed) => {
        if (!committed) progress.begin(topic, partition);
        else await reach(progress.advance(topic, partition, committed.position, committed.caughtUp));
      },
      onError: report,
    };

    const consumer = kafka.consumer({ ...consumerConfig, groupId: groupPrefix + groupIdOf(group.name) });
    const pipeline = group.inFlight === undefined ? null : createPipeline({ ...deps, consumer, limit: group.inFlight });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      pipeline?.reset();
      void reach(progress.retain(payload.memberAssignment)).catch(report);
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => report(payload.error));
    await consumer.connect();
    try {
      // fromBeginning applies only to a group without committed offsets: a new group reads the whole log.
      await consumer.subscribe({ topics: subscribed, fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: pipeline ? (payload) => pipeline.eachBatch(payload) : (payload) => consumeBatch(payload, deps),
      });
    } catch (error) {
      await consumer.disconnect().catch(report);
      throw error;
    }

    let stopped = false;
    const handle: GroupHandle = {
      position: () => position,
      waitFor: (target, timeoutMs) => waiters.waitFor(target, timeoutMs),
      async stop() {
        if (stopped) return;
        stopped = true;
        handles.delete(handle);
        try {
          if (pipeline) {
            // The runs in hand end first (those not started give up: onStop, after the pipeline
            // stopped taking), and what finished is committed while the member owns its partitions.
            const drained = pipeline.drain();
            group.onStop?.();
            await drained;
            return await consumer.disconnect();
          }
          // Waits for the batch in hand (it stops at its next step and commits what is done), then leaves the group.
          const leaving = consumer.disconnect();
          // After kafkajs has marked itself stopping (synchronously, above): what the group then
          // gives up fails as an interruption, uncommitted, not as an error to retry.
          group.onStop?.();
          await leaving;
        } finally {
          waiters.rejectAll('stopped');
        }
      },
    };
    handles.add(handle);
    return handle;
  }

  return {
    subscribe,
    async close() {
      await Promise.all([...handles].map((h) => h.stop()));
    },
  };
}
