import { type Admin, type Kafka, type Message, Partitioners, type TopicMessages } from 'kafkajs';
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

/**
 * The relay's and the dead letters' producer. Idempotent with one request in flight, so the
 * broker drops a retried duplicate and never reorders a partition; `acks: -1` waits for every
 * in-sync replica, so a resolved publish survives a broker loss. Keys go through the
 * Java-compatible murmur2 partitioner, so other clients place a stream in the same partition.
 */
export async function createKafkaPublisher(kafka: Kafka, maxRequestBytes = MAX_REQUEST_BYTES): Promise<KafkaPublisher> {
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  return {
    async publish(messages) {
      for (const chunk of chunkBySize(messages, maxRequestBytes)) await producer.sendBatch({ acks: -1, topicMessages: byTopic(chunk) });
    },
    close: () => producer.disconnect(),
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
export const chunkBySize = (messages: readonly OutgoingMessage[], maxBytes: number): OutgoingMessage[][] =>
  batchBySize(messages, (message) => Buffer.byteLength(message.key) + Buffer.byteLength(message.value), maxBytes);

/** One entry per topic, each keeping the order its messages had. */
function byTopic(messages: readonly OutgoingMessage[]): TopicMessages[] {
  const topics = new Map<string, Message[]>();
  for (const { topic, key, value, headers } of messages) {
    const list = topics.get(topic) ?? [];
    list.push({ key, value, headers });
    topics.set(topic, list);
  }
  return [...topics].map(([topic, list]) => ({ topic, messages: list }));
}
