import { randomUUID } from 'node:crypto';
import { type Admin, type Kafka, type KafkaMessage, Partitioners } from 'kafkajs';

/** A test's own name for topics and groups on a broker other tests share (KAFKA_NAMESPACE). */
export const freshNamespace = (label: string) => `test-${label}-${randomUUID().slice(0, 8)}.`;

/**
 * Every message on the topics from the beginning, read by a group of its own, until `enough`
 * says so (or the time is up: then what was read so far, for the test to fail on with detail).
 */
export async function readTopics(kafka: Kafka, topics: string[], enough: (messages: KafkaMessage[]) => boolean, timeoutMs = 30_000): Promise<KafkaMessage[]> {
  const consumer = kafka.consumer({ groupId: `test-reader-${randomUUID()}`, maxWaitTimeInMs: 100 });
  const messages: KafkaMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics, fromBeginning: true });
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    await consumer.run({
      eachMessage: async ({ message }) => {
        messages.push(message);
        if (enough(messages)) done();
      },
    });
    const timer = setTimeout(done, timeoutMs);
    await finished;
    clearTimeout(timer);
    return messages;
  } finally {
    await consumer.disconnect();
  }
}

/** Events a group has yet to commit, over the topics it has offsets on: high watermark minus committed offset. */
export async function groupLag(admin: Admin, groupId: string, topics: string[]): Promise<number> {
  let lag = 0;
  for (const { topic, partitions } of await admin.fetchOffsets({ groupId, topics })) {
    const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
    for (const { partition, offset } of partitions) lag += (ends.get(partition) ?? 0) - Math.max(0, Number(offset));
  }
  return lag;
}

export const headerOf = (message: KafkaMessage, name: string) => message.headers?.[name]?.toString();

const javaCompatible = Partitioners.DefaultPartitioner();

/** The partition the relay's producer (kafkajs's default, Java-compatible murmur2) gives a key; only the count matters. */
export function partitionOfKey(topic: string, key: string, partitions: number): number {
  const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
  return javaCompatible({ topic, partitionMetadata, message: { key, value: null } });
}
