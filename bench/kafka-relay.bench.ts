import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { ensureTopics } from '../src/adapters/kafka/producer.ts';
import { type KafkaClientChoice, openPublisher } from '../src/adapters/kafka/publisher-choice.ts';
import { createRelay } from '../src/adapters/kafka/relay.ts';
import type { TopicMap } from '../src/adapters/kafka/topics.ts';
import { createSqliteCheckpointStore } from '../src/adapters/sqlite/checkpoint-store.ts';
import { openSqlite } from '../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../src/adapters/sqlite/event-store.ts';
import { at, kbUpdated, newEvent } from './fixtures.ts';
import { log, round, withTempDir } from './util.ts';

/**
 * The relay's throughput to a real broker (`npm run kafka:up`, then KAFKA_BROKERS): an embedded
 * log of small events (knowledge-base updates) in many streams, published
 * from the first position to the head, idempotent producer and acks=all as in production.
 * KBQA_KAFKA_CLIENT picks the publisher as the application does (auto: librdkafka when its
 * binding loads, else kafkajs); the result names the one used.
 */
const EVENTS = Number(process.env.KBQA_BENCH_RELAY_EVENTS ?? 10_000);
const PER_STREAM = 10;
const PARTITIONS = 6;
const GOAL_PER_SECOND = 20_000;

export async function kafkaRelayBench() {
  const brokers = process.env.KAFKA_BROKERS?.split(',').map((b) => b.trim());
  if (!brokers) return { pass: true, skipped: 'KAFKA_BROKERS not set; run `npm run kafka:up` and export the line it prints' };
  return withTempDir('relay', async (dir) => {
    const db = openSqlite(join(dir, 'kbqa.db'));
    const store = createSqliteEventStore({ db });
    const checkpoints = createSqliteCheckpointStore(db);
    for (let s = 0; s < EVENTS / PER_STREAM; s++) {
      const kb = `kb_bench${s}`;
      await store.append(`knowledge_base-${kb}`, Array.from({ length: PER_STREAM }, (_, v) => newEvent('KnowledgeBaseUpdated', kbUpdated(kb, s, v + 1, at(s)))), 'no_stream');
    }
    const head = await store.headPosition();
    const name = `kbqa-bench-relay-${Date.now()}`;
    const topics: TopicMap = { ofStream: () => name, forEventTypes: () => [name], deadLetter: `${name}.dead-letter`, all: [name] };
    const kafka = new Kafka({ clientId: 'kbqa-bench', brokers, logLevel: logLevel.ERROR });
    const admin = kafka.admin();
    await admin.connect();
    await ensureTopics(admin, { partitions: PARTITIONS, replicationFactor: 1, topics });
    const choice = (process.env.KBQA_KAFKA_CLIENT ?? 'auto') as KafkaClientChoice;
    const { publisher, client } = await openPublisher({ choice, kafka, brokers, clientId: 'kbqa-bench', warn: (line) => log(line) });
    try {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const relay = await createRelay({ store, publisher, checkpoints, topics });
      await relay.waitFor(head, 300_000);
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      await relay.stop();
      // CPU time per event holds still under a loaded host, where the wall-clock rate swings 2x.
      const cpuUsPerEvent = round((cpu.user + cpu.system) / EVENTS, 1);
      const perSecond = round(EVENTS / seconds);
      log(`kafka_relay (${client}): ${EVENTS} events in ${round(seconds, 2)} s = ${perSecond}/s, ${cpuUsPerEvent} µs CPU/event, heap ${round(process.memoryUsage().heapUsed / 2 ** 20)} MB`);
      return { client, events: EVENTS, partitions: PARTITIONS, seconds: round(seconds, 2), events_per_second: perSecond, cpu_us_per_event: cpuUsPerEvent, goal_per_second: GOAL_PER_SECOND, pass: perSecond >= GOAL_PER_SECOND };
    } finally {
      await publisher.close();
      await admin.deleteTopics({ topics: [name] }).catch(() => {});
      await admin.disconnect();
      await store.close();
      db.close();
    }
  });
}
