import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import type { OutgoingMessage } from '../../src/adapters/kafka/messages.ts';
import { createNativePublisher, loadNativeKafka, NATIVE_KAFKA_PACKAGE } from '../../src/adapters/kafka/native-producer.ts';
import { ensureTopics } from '../../src/adapters/kafka/producer.ts';
import { withService } from '../helpers/services.ts';
import { eventually } from '../helpers/temp.ts';

/**
 * librdkafka's publisher (native-producer.ts) against the real broker: what the relay relies on
 * from it, read back with kafkajs's consumer as the workers read it.
 */
const PARTITIONS = 6;

const nativeMissing = (() => {
  try {
    loadNativeKafka();
    return '';
  } catch (error) {
    return `${NATIVE_KAFKA_PACKAGE} cannot be loaded: ${(error as Error).message.split('\n')[0]}`;
  }
})();

withService(test, 'librdkafka publisher', ['KAFKA_BROKERS'], (env) => {
  const brokers = env.KAFKA_BROKERS!.split(',').map((b) => b.trim());
  if (nativeMissing) {
    test.skip(`librdkafka publisher (skipped: ${nativeMissing})`, () => {});
    process.stdout.write(`skipping "librdkafka publisher": ${nativeMissing}\n`);
    return;
  }
  const kafka = new Kafka({ clientId: 'kbqa-test-native', brokers, logLevel: logLevel.NOTHING });

  test('keeps each key in order on the partition the Java partitioner (kafkajs DefaultPartitioner) picks, headers intact', async (t) => {
    t.timeout(60_000);
    const topic = `kbqa-test-native-${randomUUID().slice(0, 8)}`;
    const admin = kafka.admin();
    await admin.connect();
    await ensureTopics(admin, { partitions: PARTITIONS, replicationFactor: 1, topics: { ofStream: () => topic, forEventTypes: () => [topic], deadLetter: topic, all: [topic] } });
    const publisher = await createNativePublisher({ brokers, clientId: 'kbqa-test-native' });
    const consumer = kafka.consumer({ groupId: `native-${randomUUID().slice(0, 8)}`, maxWaitTimeInMs: 100 });
    try {
      // 60 streams, 10 events each, interleaved as the global log interleaves them; three publishes as the relay's batches.
      const sent: OutgoingMessage[] = [];
      for (let n = 0; n < 600; n++) {
        const key = `knowledge_base-kb_${n % 60}`;
        sent.push({ topic, key, value: JSON.stringify({ key, n, text: 'é'.repeat(n % 7) }), headers: { 'kbqa-event-type': 'KnowledgeBaseUpdated', 'kbqa-event-id': `evt_${n}`, 'kbqa-schema-version': String(1 + (n % 3)), 'kbqa-note': 'naïve ✓' } });
      }
      for (let from = 0; from < sent.length; from += 200) await publisher.publish(sent.slice(from, from + 200));

      const received: { partition: number; offset: bigint; key: string; value: string; headers: Record<string, string> }[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]));
          received.push({ partition, offset: BigInt(message.offset), key: message.key!.toString(), value: message.value!.toString(), headers });
        },
      });
      await eventually(() => received.length >= sent.length, { timeoutMs: 30_000, everyMs: 50 });
      t.is(received.length, sent.length, 'each message once');

      const javaPartition = Partitioners.DefaultPartitioner();
      const partitionMetadata = Array.from({ length: PARTITIONS }, (_, partitionId) => ({ partitionId, leader: 1, replicas: [1], isr: [1], offlineReplicas: [], partitionErrorCode: 0 }));
      const byValue = new Map(sent.map((m) => [m.value, m]));
      for (const message of received) {
        const original = byValue.get(message.value)!;
        t.is(message.key, original.key);
        t.deepEqual(message.headers, original.headers);
        t.is(message.partition, javaPartition({ topic, partitionMetadata, message: { key: original.key, value: original.value } }), `partition of ${original.key}`);
      }
      // In each partition, by offset, the messages come in the order they were published.
      for (let partition = 0; partition < PARTITIONS; partition++) {
        const inPartition = received.filter((m) => m.partition === partition).sort((a, b) => (a.offset < b.offset ? -1 : 1));
        const order = inPartition.map((m) => (JSON.parse(m.value) as { n: number }).n);
        t.deepEqual(order, [...order].sort((a, b) => a - b), `partition ${partition} in publish order`);
      }
      t.true(new Set(received.map((m) => m.partition)).size > 1, 'the keys spread over partitions');
    } finally {
      await consumer.disconnect();
      await publisher.close();
      await admin.deleteTopics({ topics: [topic] }).catch(() => {});
      await admin.disconnect();
    }
  });

  test('a publish to a topic that does not exist rejects (the relay retries it) and creates no topic', async (t) => {
    t.timeout(60_000);
    const topic = `kbqa-test-native-missing-${randomUUID().slice(0, 8)}`;
    // librdkafka waits this long for a topic it has not seen to appear (30 s by default).
    const publisher = await createNativePublisher({ brokers, clientId: 'kbqa-test-native', settings: { 'topic.metadata.propagation.max.ms': 1000 } });
    const admin = kafka.admin();
    await admin.connect();
    try {
      const error = await t.throwsAsync(publisher.publish([{ topic, key: 'k', value: '{}', headers: { 'kbqa-event-type': 'X' } }]));
      t.regex(error!.message, /not acknowledged: .*unknown topic/i);
      t.false((await admin.listTopics()).includes(topic));
      // The publisher stays usable: once the topic exists, the relay's next attempt succeeds.
      await ensureTopics(admin, { partitions: 1, replicationFactor: 1, topics: { ofStream: () => topic, forEventTypes: () => [topic], deadLetter: topic, all: [topic] } });
      await publisher.publish([{ topic, key: 'k', value: '{}', headers: {} }]);
    } finally {
      await publisher.close();
      await admin.deleteTopics({ topics: [topic] }).catch(() => {});
      await admin.disconnect();
    }
  });
});
