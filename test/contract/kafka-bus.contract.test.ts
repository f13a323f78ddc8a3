import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { createKafkaBus } from '../../src/adapters/kafka/bus.ts';
import { createKafkaPublisher, ensureTopics } from '../../src/adapters/kafka/producer.ts';
import { createRelay } from '../../src/adapters/kafka/relay.ts';
import type { TopicMap } from '../../src/adapters/kafka/topics.ts';
import { withService } from '../helpers/services.ts';
import { testEventBus } from './suites/event-bus.suite.ts';
import { sqliteLog } from '../helpers/sqlite-log.ts';

/**
 * Every fixture gets its own topic, since each has its own event store whose positions start at
 * 1. One topic of one partition for all streams: the suite's streams are not of the categories
 * their event types belong to (so the contract's per-category topics would not carry them), and it
 * expects log order across streams, which Kafka gives only within a partition.
 */
const topicsOf = (name: string): TopicMap => ({
  ofStream: () => name,
  forEventTypes: () => [name],
  deadLetter: `${name}.dead-letter`,
  all: [name, `${name}.dead-letter`],
});

withService(test, 'kafka bus', ['KAFKA_BROKERS'], (env) => {
  const brokers = env.KAFKA_BROKERS!.split(',').map((b) => b.trim());
  testEventBus(test, 'kafka bus (relay from sqlite)', async () => {
    const unique = randomUUID().slice(0, 8);
    const topics = topicsOf(`kbqa-test-${unique}`);
    const log = sqliteLog();
    const { store, checkpoints } = log;
    const kafka = new Kafka({ clientId: `kbqa-test-${unique}`, brokers, logLevel: logLevel.ERROR });
    const admin = kafka.admin();
    await admin.connect();
    try {
      await ensureTopics(admin, { partitions: 1, replicationFactor: 1, topics });
    } catch (error) {
      // Without this a failed setup leaves the client and the log open, and AVA waits for them.
      await admin.disconnect();
      await log.close();
      throw error;
    }
    const publisher = await createKafkaPublisher(kafka);
    const relay = await createRelay({ store, publisher, checkpoints, topics, backoff: { baseMs: 10, maxMs: 200 } });
    const bus = createKafkaBus({
      kafka,
      checkpoints,
      publisher,
      topics,
      backoff: { attempts: 3, baseMs: 1, maxMs: 5 },
      // A short fetch wait lets a stopping consumer leave promptly.
      consumer: { maxWaitTimeInMs: 100, heartbeatInterval: 500 },
    });
    return {
      store,
      bus,
      checkpoints,
      cleanup: async () => {
        await relay.stop();
        await publisher.close();
        await admin.deleteTopics({ topics: [...topics.all] }).catch(() => {});
        await admin.disconnect();
        await log.close();
      },
    };
  });
});
