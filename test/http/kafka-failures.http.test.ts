import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { DeadLetterMessage, HEADER } from '../../schemas/topics.ts';
import { groupIdOf } from '../../src/adapters/kafka/bus.ts';
import { namespacedTopics } from '../../src/adapters/kafka/topics.ts';
import { settledDocument } from '../helpers/documents.ts';
import { freshNamespace, groupLag, readTopics } from '../helpers/kafka-read.ts';
import { startServer } from '../helpers/server.ts';
import { withService } from '../helpers/services.ts';
import { eventually } from '../helpers/temp.ts';
import { kbDeleted, openRelayRig } from '../helpers/relay-rig.ts';

/**
 * Failures against the real broker. Each test has a KAFKA_NAMESPACE (or topics) of its own, so
 * its topics and consumer groups are apart from those of other tests sharing the broker.
 */
withService(test, 'Kafka failures (real broker)', ['KAFKA_BROKERS'], (env) => {
  const brokers = env.KAFKA_BROKERS!.split(',').map((b) => b.trim());
  const client = (label: string) => new Kafka({ clientId: `kbqa-test-${label}`, brokers, logLevel: logLevel.NOTHING });

  test('an unreadable message on the document topic is dead-lettered by every group that takes it, and the groups go on', async (t) => {
    t.timeout(60_000);
    const namespace = freshNamespace('poison');
    const topics = namespacedTopics(namespace);
    const server = await startServer({ KAFKA_BROKERS: brokers.join(','), KAFKA_NAMESPACE: namespace, KAFKA_TOPIC_PARTITIONS: '2' });
    const kafka = client('poison');
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    try {
      const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'poison' } });
      const poison = Buffer.from('{"id": "not json at all');
      const key = `document-doc_poison${randomUUID().slice(0, 8)}`;
      await producer.send({ topic: topics.ofStream(key), messages: [{ key, value: poison, headers: { [HEADER.eventType]: 'DocumentUploaded', [HEADER.eventId]: randomUUID(), [HEADER.schemaVersion]: '1' } }] });

      // The same partitions carry on: an upload after the poison reaches ready.
      const { body: upload } = await server.call('POST', `/v1/knowledge-bases/${kb.id}/documents`, { json: { name: 'after.txt', text: 'The ferry leaves the harbour at dawn.' } });
      const doc = await settledDocument(server, kb.id, upload.data[0].id, 45_000);
      t.is(doc.status, 'ready');

      // Every group subscribed to DocumentUploaded parks it once, as it was (base64 bytes, key, headers).
      const expected = ['parser', 'parser-small', 'projector'];
      const letters = (await readTopics(kafka, [topics.deadLetter], (all) => all.length >= expected.length, 20_000)).map((m) => DeadLetterMessage.parse(JSON.parse(m.value!.toString())));
      const ours = letters.filter((l) => l.raw?.key === key);
      t.deepEqual(ours.map((l) => l.group).sort(), expected.sort());
      for (const letter of ours) {
        t.is(letter.raw?.value, poison.toString('base64'));
        t.is(letter.topic, topics.ofStream(key));
        t.regex(letter.error, /not JSON/);
      }
    } finally {
      await producer.disconnect();
      await server.close();
    }
  });

  test('a group that stopped while 2,000 events were appended catches up: lag back to zero, every event handled once', async (t) => {
    t.timeout(60_000);
    const name = `kbqa-test-catchup-${randomUUID().slice(0, 8)}`;
    const kafka = client('catchup');
    const { log, admin, relay, bus, close } = await openRelayRig(kafka, brokers, name, { partitions: 3, consumer: { maxWaitTimeInMs: 100, heartbeatInterval: 500 } });
    const handled = new Map<string, number>();
    const group = { name: `catchup-${randomUUID().slice(0, 8)}`, handle: async (batch: { id: string }[]) => void batch.forEach((e) => handled.set(e.id, (handled.get(e.id) ?? 0) + 1)) };
    const append = async (streams: number, perStream: number) => {
      for (let s = 0; s < streams; s++) {
        await log.store.append(`knowledge_base-${randomUUID()}`, Array.from({ length: perStream }, () => kbDeleted(`kb_${s}`)), 'no_stream');
      }
    };
    try {
      let handle = await bus.subscribe(group);
      await append(10, 10);
      await handle.waitFor(await log.store.headPosition(), 20_000);
      // The group position is approximate across partitions (group-position.ts): the offsets tell for sure.
      const lagOf = () => groupLag(admin, groupIdOf(group.name), [name]);
      await eventually(async () => (await lagOf()) === 0, { timeoutMs: 10_000, everyMs: 100 });
      await handle.stop();

      await append(200, 10);
      const head = await log.store.headPosition();
      await relay.waitFor(head, 20_000);
      const behind = await lagOf();
      t.is(behind, 2000, 'the stopped group is 2,000 events behind once the relay has published them');

      const resumed = Date.now();
      handle = await bus.subscribe(group);
      await handle.waitFor(head, 30_000);
      await eventually(async () => (await lagOf()) === 0, { timeoutMs: 10_000, everyMs: 100 });
      t.log(`caught up 2,000 events in ${Date.now() - resumed} ms`);
      t.is(handled.size, 2100);
      t.deepEqual([...new Set(handled.values())], [1], 'no event handled twice');
      await handle.stop();
    } finally {
      await close();
    }
  });
});
