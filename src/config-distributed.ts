import { z } from 'zod';

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

/**
 * The distributed profile's services (EventStoreDB, Kafka, MongoDB, Pinecone), for src/config.ts
 * (the one reader of the environment), kept here so that file stays within its size. Each one set
 * replaces its embedded adapter (docs/deployment.md).
 */
export const distributedEnv = {
  EVENTSTORE_URL: z.string().regex(/^esdb(\+discover)?:\/\//, 'an esdb:// or esdb+discover:// connection string').optional(),
  KAFKA_BROKERS: z.string().regex(/^\s*[^,\s]+:\d+\s*(,\s*[^,\s]+:\d+\s*)*$/, 'a comma-separated list of host:port').optional(),
  KAFKA_CLIENT_ID: z.string().min(1).default('kbqa'),
  KBQA_KAFKA_CLIENT: z.enum(['auto', 'kafkajs', 'native']).default('auto'),
  KAFKA_TOPIC_PARTITIONS: int(6, 1),
  KAFKA_REPLICATION_FACTOR: int(1, 1),
  // Prefixes every topic and consumer group, so several deployments (or test runs) can share one cluster.
  KAFKA_NAMESPACE: z.string().regex(/^[A-Za-z0-9._-]*$/, 'letters, digits, dot, underscore and hyphen').default(''),
  MONGODB_URL: z.string().regex(/^mongodb(\+srv)?:\/\//, 'a mongodb:// or mongodb+srv:// connection string').optional(),
  PINECONE_API_KEY: z.string().min(1).optional(),
  PINECONE_INDEX: z.string().min(1).optional(),
  PINECONE_INDEX_HOST: z.string().min(1).optional(),
};
