import { type Admin, type Kafka, type Message, Partitioners, type Producer, type TopicMessages } from 'kafkajs';
import { type PlacedMessage, splitIntoLanes } from './lanes.ts';
import type { OutgoingMessage, Publisher } from './messages.ts';
import { CONTRACT_TOPICS, type TopicMap } from './topics.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { batchBySize } from '../../domain/shared/batch-by-size.ts';
import { isRetriable } from '../../lib/retry.ts';

export type KafkaPublisher = Publisher & { close(): Promise<void> };

/**
 * Brokers refuse a record batch over `message.max.bytes` (1 MB by default) for one partition, and
 * events run up to 512 KB, so a publish is sent in chunks under this many bytes of keys and values.
 */
const MAX_REQUEST_BYTES = 900_000;

/** Producers publishing side by side, each to its own partitions (see splitIntoLanes). */
const LANES = 2;

export type PublisherOptions = { lanes?: number; maxRequestBytes?: number };

/**
 * The relay's and the dead letters' publisher. Each lane is an idempotent producer with one
 * request in flight (kafkajs holds a lock per broker while a request is out, so one producer
 * leaves the process idle while the broker works); each partition belongs to one lane, so the
 * broker drops a retried duplicate and never reorders a partition. `acks: -1` waits for every
 * in-sync replica, so a resolved publish survives a broker loss. Partitions are chosen with the
 * Java-compatible murmur2 partitioner, so other clients place a stream in the same partition.
 */
export async function createKafkaPublisher(kafka: Kafka, { lanes = LANES, maxRequestBytes = MAX_REQUEST_BYTES }: PublisherOptions = {}): Promise<KafkaPublisher> {
  const producers = Array.from({ length: lanes }, () =>
    kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // Unused (every message names its partition), but set so kafkajs does not warn about its v2 default.
      createPartitioner: Partitioners.DefaultPartitioner,
    }),
  );
  const admin = kafka.admin();
  await Promise.all([...producers.map((p) => p.connect()), admin.connect()]);
  const partitions = await partitionCounts(admin);
  const send = async (producer: Producer, messages: readonly PlacedMessage[]) => {
    for (const chunk of chunkBySize(messages, maxRequestBytes)) await producer.sendBatch({ acks: -1, topicMessages: byTopic(chunk) });
  };
  return {
    async publish(messages) {
      if (messages.length === 0) return;
      await partitions.load(new Set(messages.map((m) => m.topic)));
      const split = splitIntoLanes(messages, partitions.of, lanes);
      // Every lane settles before a failure is thrown: the caller's retry must not overlap a lane still sending.
      const results = await Promise.allSettled(split.map((lane, i) => (lane.length > 0 ? send(producers[i]!, lane) : undefined)));
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
    close: async () => {
      await Promise.all([...producers.map((p) => p.disconnect()), admin.disconnect()]);
    },
  };
}

/** Each topic's partition count, asked once (adding partitions later would move keys anyway: see docs/deployment.md). */
function partitionCounts(admin: Admin) {
  const counts = new Map<string, number>();
  return {
    async load(topics: ReadonlySet<string>) {
      const missing = [...topics].filter((t) => !counts.has(t));
      if (missing.length === 0) return;
      const metadata = await admin.fetchTopicMetadata({ topics: missing });
      for (const { name, partitions } of metadata.topics) counts.set(name, partitions.length);
    },
    of(topic: string): number {
      const count = counts.get(topic);
      if (count === undefined) throw new Error(`no partition count for topic ${topic}`);
      return count;
    },
  };
}

/**
 * Creates whichever topics of the map are missing and waits until every partition has a leader;
 * safe to run from several processes at once (createTopics resolves false for a topic another made).
 */
export async function ensureTopics(
  admin: Admin,
  { partitions, replicationFactor, topics = CONTRACT_TOPICS, timeoutMs = 30_000 }: { partitions: number; replicationFactor: number; topics?: TopicMap; timeoutMs?: number },
) {
  const existing = new Set(await admin.listTopics());
  const missing = topics.all.filter((topic) => !existing.has(topic));
  if (missing.length === 0) return;
  // waitForLeaders defaults to true in kafkajs: off, as waitForLeaders below does it.
  await admin.createTopics({ waitForLeaders: false, topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor })) });
  await waitForLeaders(admin, missing, timeoutMs);
}

/**
 * Not kafkajs's `waitForLeaders`: it retries only LEADER_NOT_AVAILABLE, but a KRaft broker learns
 * of a new topic from the controller's log a moment after CreateTopics returns, and until then
 * answers UNKNOWN_TOPIC_OR_PARTITION (found against a real Kafka 4 broker; the stand-ins never lagged).
 */
async function waitForLeaders(admin: Admin, names: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let lastError: unknown = null;
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: names });
      if (topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
    } catch (error) {
      if (!isRetriable(error)) throw error;
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`topics ${names.join(', ')} have no leader after ${timeoutMs} ms`, { cause: lastError });
    await sleep(100);
  }
}

/** Consecutive runs of messages under `maxBytes` each (a larger message travels alone), in order. */
export const chunkBySize = <M extends OutgoingMessage>(messages: readonly M[], maxBytes: number): M[][] =>
  batchBySize(messages, (message) => Buffer.byteLength(message.key) + Buffer.byteLength(message.value), maxBytes);

/** One entry per topic, each keeping the order its messages had. */
function byTopic(messages: readonly PlacedMessage[]): TopicMessages[] {
  const topics = new Map<string, Message[]>();
  for (const { topic, key, value, headers, partition } of messages) {
    const list = topics.get(topic) ?? [];
    list.push({ key, value, headers, partition });
    topics.set(topic, list);
  }
  return [...topics].map(([topic, list]) => ({ topic, messages: list }));
}
