import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { createRunScheduler, DEFAULT_RUN_LIMITS } from '../consumers/runner/scheduler.ts';
import { createKafkaBus } from '../src/adapters/kafka/bus.ts';
import { ensureTopics } from '../src/adapters/kafka/producer.ts';
import { type KafkaClientChoice, openPublisher } from '../src/adapters/kafka/publisher-choice.ts';
import { createRelay } from '../src/adapters/kafka/relay.ts';
import type { TopicMap } from '../src/adapters/kafka/topics.ts';
import { createSqliteCheckpointStore } from '../src/adapters/sqlite/checkpoint-store.ts';
import { openSqlite } from '../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../src/adapters/sqlite/event-store.ts';
import type { RecordedEvent } from '../src/ports/event-store.ts';
import { at, kbDeleted, newEvent } from './fixtures.ts';
import { log, round, withTempDir } from './util.ts';

/**
 * Issue 42, "one tenant cannot stall another", on a real broker (KAFKA_BROKERS): one slow run at
 * the head of a partition (SLOW_MS, an HTTP node waiting on a slow server), then FAST runs
 * requested behind it on the same partition (one partition: runs keyed alike; KBQA_BENCH_PARTITIONS
 * spreads them). A group shaped as
 * the runner's (slices of 8, KBQA_WORKFLOW_HELD_RUNS in hand, the runner's scheduler with its
 * default slots, each run a workspace of its own) takes them; the figure is the time from the
 * fast runs' requests until the last of them has ended. The consumer keeps kafkajs's defaults
 * but for the bus's session, as in production.
 */
const SLOW_MS = Number(process.env.KBQA_BENCH_SLOW_MS ?? 5000);
const FAST = Number(process.env.KBQA_BENCH_FAST_RUNS ?? 100);
const FAST_MS = 50;
/** 1: every run behind the slow one on its partition; KAFKA_TOPIC_PARTITIONS' 6 spreads them, as run ids do. */
const PARTITIONS = Number(process.env.KBQA_BENCH_PARTITIONS ?? 1);

export async function kafkaPartitionPipelineBench() {
  const brokers = process.env.KAFKA_BROKERS?.split(',').map((b) => b.trim());
  if (!brokers) return { pass: true, skipped: 'KAFKA_BROKERS not set; run `npm run kafka:up` and export the line it prints' };
  return withTempDir('partition-pipeline', async (dir) => {
    const db = openSqlite(join(dir, 'kbqa.db'));
    const store = createSqliteEventStore({ db, pollIntervalMs: 20 });
    const checkpoints = createSqliteCheckpointStore(db);
    const name = `kbqa-bench-pipeline-${Date.now()}`;
    const topics: TopicMap = { ofStream: () => name, forEventTypes: () => [name], deadLetter: `${name}.dead-letter`, all: [name, `${name}.dead-letter`] };
    const kafka = new Kafka({ clientId: 'kbqa-bench', brokers, logLevel: logLevel.ERROR });
    const admin = kafka.admin();
    await admin.connect();
    await ensureTopics(admin, { partitions: PARTITIONS, replicationFactor: 1, topics });
    const choice = (process.env.KBQA_KAFKA_CLIENT ?? 'auto') as KafkaClientChoice;
    const { publisher } = await openPublisher({ choice, kafka, brokers, clientId: 'kbqa-bench', warn: (line) => log(line) });
    const relay = await createRelay({ store, publisher, checkpoints, topics });
    const bus = createKafkaBus({ kafka, checkpoints, publisher, topics });

    const scheduler = createRunScheduler(DEFAULT_RUN_LIMITS);
    const ended = new Map<string, number>();
    let slowStarted = false;
    const run = (id: string) => scheduler.schedule(id, async () => {
      if (id === 'slow') slowStarted = true;
      await new Promise((resolve) => setTimeout(resolve, id === 'slow' ? SLOW_MS : FAST_MS));
      ended.set(id, performance.now());
    });
    const waitUntil = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const idOf = (event: RecordedEvent) => (event.data as { knowledge_base_id: string }).knowledge_base_id;
    const append = (id: string, i: number) => store.append(`knowledge_base-${id}`, [newEvent('KnowledgeBaseDeleted', kbDeleted(id, at(i)))], 'no_stream');
    try {
      const group = await bus.subscribe({
        name: `bench-pipeline-${Date.now()}`,
        batchSize: 8,
        inFlight: DEFAULT_RUN_LIMITS.held,
        handle: async (batch) => void (await Promise.all(batch.map((event) => run(idOf(event))))),
      });
      await append('slow', 0);
      await waitUntil(() => slowStarted);
      const slowSince = performance.now();
      const requested = performance.now();
      for (let i = 0; i < FAST; i++) await append(`fast${i}`, i + 1);
      await waitUntil(() => ended.size === FAST + 1);
      const fastEnded = Math.max(...Array.from({ length: FAST }, (_, i) => ended.get(`fast${i}`)!));
      const fastMs = round(fastEnded - requested);
      const behindSlow = fastEnded > ended.get('slow')!;
      await group.waitFor(await store.headPosition(), 30_000);
      log(`kafka_partition_pipeline: ${FAST} fast runs behind a ${SLOW_MS} ms run ended ${fastMs} ms after their requests${behindSlow ? ', after the slow one' : ', before the slow one'}`);
      return {
        partitions: PARTITIONS,
        slow_run_ms: SLOW_MS,
        fast_runs: FAST,
        fast_run_ms: FAST_MS,
        fast_runs_ended_ms: fastMs,
        slow_run_ended_ms: round(ended.get('slow')! - slowSince),
        fast_runs_waited_for_slow: behindSlow,
        pass: !behindSlow,
      };
    } finally {
      await bus.close();
      await relay.stop();
      await publisher.close();
      await admin.deleteTopics({ topics: [...topics.all] }).catch(() => {});
      await admin.disconnect();
      await store.close();
      db.close();
    }
  });
}
