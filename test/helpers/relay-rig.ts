import { randomUUID } from 'node:crypto';
import type { ConsumerConfig, Kafka } from 'kafkajs';
import { createKafkaBus } from '../../src/adapters/kafka/bus.ts';
import { ensureTopics } from '../../src/adapters/kafka/producer.ts';
import { createRelay } from '../../src/adapters/kafka/relay.ts';
import type { TopicMap } from '../../src/adapters/kafka/topics.ts';
import type { NewEvent } from '../../src/ports/event-store.ts';
import { openTestPublisher } from './kafka-publisher.ts';
import { sqliteLog } from './sqlite-log.ts';

/** Every stream on one topic of the test's own, with its dead-letter topic beside it. */
export const oneTopic = (name: string): TopicMap => ({ ofStream: () => name, forEventTypes: () => [name], deadLetter: `${name}.dead-letter`, all: [name, `${name}.dead-letter`] });

/** A small event any group may take: a knowledge base deleted. */
export const kbDeleted = (knowledgeBaseId: string): NewEvent => ({
  id: randomUUID(),
  type: 'KnowledgeBaseDeleted',
  data: { knowledge_base_id: knowledgeBaseId, deleted_at: '2026-01-01T00:00:00.000Z' },
  metadata: { schemaVersion: 1 },
});

/**
 * An embedded log relayed to `topic` on the real broker, and a Kafka bus over it: what the Kafka
 * failure tests drive. `close` takes it all down, the topics included.
 */
export async function openRelayRig(kafka: Kafka, brokers: readonly string[], topic: string, { partitions, consumer }: { partitions: number; consumer: Omit<ConsumerConfig, 'groupId'> }) {
  const topics = oneTopic(topic);
  const log = sqliteLog();
  const admin = kafka.admin();
  await admin.connect();
  await ensureTopics(admin, { partitions, replicationFactor: 1, topics });
  const publisher = await openTestPublisher(kafka, brokers);
  const relay = await createRelay({ store: log.store, publisher, checkpoints: log.checkpoints, topics, backoff: { baseMs: 10, maxMs: 200 } });
  const bus = createKafkaBus({ kafka, checkpoints: log.checkpoints, publisher, topics, consumer });
  return {
    topics,
    log,
    admin,
    relay,
    bus,
    async close() {
      await bus.close();
      await relay.stop();
      await publisher.close();
      await admin.deleteTopics({ topics: [...topics.all] }).catch(() => {});
      await admin.disconnect();
      await log.close();
    },
  };
}
