/**
 * One member of a Kafka bus consumer group in a process of its own, for the test that kills it
 * (test/http/kafka-rebalance.http.test.ts). Prints `handled <event id>` for every event it handles.
 * Environment: KAFKA_BROKERS, TOPIC, GROUP.
 */
import { Kafka, logLevel } from 'kafkajs';
import { createKafkaBus } from '../../src/adapters/kafka/bus.ts';
import { createSqliteCheckpointStore } from '../../src/adapters/sqlite/checkpoint-store.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { openTestPublisher } from './kafka-publisher.ts';

const topic = process.env.TOPIC!;
const kafka = new Kafka({ clientId: 'kbqa-test-member', brokers: process.env.KAFKA_BROKERS!.split(','), logLevel: logLevel.NOTHING });
// In memory: the process is killed, and a file would outlive it.
const checkpoints = createSqliteCheckpointStore(openSqlite(':memory:'));
const publisher = await openTestPublisher(kafka, process.env.KAFKA_BROKERS!.split(','));
const bus = createKafkaBus({ kafka, checkpoints, publisher, topics: { ofStream: () => topic, forEventTypes: () => [topic], deadLetter: `${topic}.dead-letter`, all: [topic] } });
await bus.subscribe({ name: process.env.GROUP!, handle: async (batch) => void batch.forEach((e) => process.stdout.write(`handled ${e.id}\n`)) });
process.stdout.write('subscribed\n');
