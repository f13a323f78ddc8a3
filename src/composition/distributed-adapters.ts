// The clients of the distributed engines (EventStoreDB, MongoDB, Pinecone, Kafka) weigh about
// 55 MB once imported; infrastructure.ts imports this module only when one of them is configured,
// so the embedded profile never loads them.
import { Kafka, logLevel } from 'kafkajs';
import type { Config } from '../config.ts';
import { createKafkaBus } from '../adapters/kafka/bus.ts';
import { ensureTopics } from '../adapters/kafka/producer.ts';
import { openPublisher, type PublisherClient } from '../adapters/kafka/publisher-choice.ts';
import { createRelay } from '../adapters/kafka/relay.ts';
import { namespacedTopics } from '../adapters/kafka/topics.ts';
import type { CheckpointStore, EventBus } from '../ports/event-bus.ts';
import type { EventStore } from '../ports/event-store.ts';

export { createEsdbEventStore } from '../adapters/esdb/event-store.ts';
export { createGridFsBlobStore } from '../adapters/mongo/blob-store.ts';
export { createMongoCheckpointStore } from '../adapters/mongo/checkpoint-store.ts';
export { connectMongo } from '../adapters/mongo/connection.ts';
export { createMongoEntityGraph } from '../adapters/mongo/entity-graph.ts';
export { createMongoKeywordIndex } from '../adapters/mongo/keyword-index.ts';
export { createMongoPassageStore } from '../adapters/mongo/passage-store.ts';
export { createMongoReadModelStore } from '../adapters/mongo/read-model-store.ts';
export { createPineconeVectorIndex } from '../adapters/pinecone/vector-index.ts';

type KafkaConfig = NonNullable<Config['distributed']['kafka']>;
export type KafkaBus = {
  bus: EventBus;
  startRelay: () => Promise<{ position(): bigint; stop(): Promise<void> }>;
  /** Who publishes: librdkafka when its binding loaded (KBQA_KAFKA_CLIENT), else kafkajs. */
  publisherClient: PublisherClient;
  close(): Promise<void>;
};

/** Topics ensured, a publisher connected (librdkafka's or kafkajs's, as KBQA_KAFKA_CLIENT says), and the consumer bus over them. */
export async function openKafkaBus(
  kafka: KafkaConfig,
  deps: {
    store: EventStore;
    checkpoints: CheckpointStore;
    onBusError: (group: string, error: unknown) => void;
    onRelayError: (error: unknown) => void;
    warn: (message: string) => void;
  },
): Promise<KafkaBus> {
  const client = new Kafka({ clientId: kafka.clientId, brokers: kafka.brokers, logLevel: logLevel.WARN });
  const admin = client.admin();
  await admin.connect();
  const topics = namespacedTopics(kafka.namespace);
  await ensureTopics(admin, { partitions: kafka.partitions, replicationFactor: kafka.replicationFactor, topics });
  await admin.disconnect();
  const { publisher, client: publisherClient } = await openPublisher({ choice: kafka.client, kafka: client, brokers: kafka.brokers, clientId: kafka.clientId, warn: deps.warn });
  const { store, checkpoints } = deps;
  return {
    bus: createKafkaBus({ kafka: client, checkpoints, publisher, topics, groupPrefix: kafka.namespace, onError: deps.onBusError }),
    startRelay: async () => createRelay({ store, publisher, checkpoints, topics, onError: deps.onRelayError }),
    publisherClient,
    close: () => publisher.close(),
  };
}
