import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { encodeEvent, type OutgoingMessage } from '../../src/adapters/kafka/messages.ts';
import { ensureTopics } from '../../src/adapters/kafka/producer.ts';
import { settledDocument, uploadFiles } from '../helpers/documents.ts';
import { documentLifecycle, schemasNamingDocumentsTopic } from '../helpers/document-topic-fixtures.ts';
import { startMixedProfileServer } from '../helpers/mixed-profile.ts';
import { startPythonSubscriber, subscriberPython } from '../helpers/python-subscriber.ts';
import { withService } from '../helpers/services.ts';

/**
 * A downstream system in another language: examples/python-subscriber (confluent-kafka) reads the
 * documents topic the mixed profile's relay writes to a real broker, checks every message against
 * schemas/json, and prints each document's lifecycle. Needs KAFKA_BROKERS and a Python with the
 * subscriber's packages (KBQA_PYTHON, else .venv/bin/python, else python3).
 */
const title = 'Python subscriber on the documents topic';
const FILES = [
  { name: 'tides.md', bytes: '# Tides\n\nSpring tides happen when the Sun and the Moon line up, twice a month.', type: 'text/markdown' },
  { name: 'kilns.txt', bytes: 'A wood-fired kiln reaches about 1300 degrees Celsius over two days of stoking.', type: 'text/plain' },
  { name: 'bees.md', bytes: '# Bees\n\nA honeybee colony keeps its brood nest near 35 degrees Celsius all year.', type: 'text/markdown' },
];
/** One line per event, each the document's steps so far: the last is the whole lifecycle. */
const LIFECYCLE = [/^uploaded$/, /^parsing$/, /^parsed \(\d+ chunks?\)$/, /^ready$/];

withService(test, title, ['KAFKA_BROKERS'], (env) => {
  const brokers = env.KAFKA_BROKERS!;
  const found = subscriberPython();
  if ('missing' in found) {
    test.skip(`${title} (skipped: ${found.missing})`, () => {});
    process.stdout.write(`skipping "${title}": ${found.missing}\n`);
    return;
  }
  test('prints each uploaded document’s lifecycle in order, ending ready, with no message failing its schema', async (t) => {
    t.timeout(240_000);
    const server = await startMixedProfileServer(brokers, { KAFKA_TOPIC_PARTITIONS: '3' });
    // Its own group, from the beginning: the topic may also hold other tests' documents, which it checks too.
    const subscriber = startPythonSubscriber(found.python, ['--brokers', brokers, '--group', `python-subscriber-test-${randomUUID()}`, '--from-beginning', '--timeout', '200']);
    try {
      const { body: kb } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'downstream' } });
      const upload = await uploadFiles(server, kb.id, FILES);
      t.is(upload.status, 202, JSON.stringify(upload.body));
      const ids: string[] = upload.body.data.map((d: { id: string }) => d.id);
      for (const id of ids) t.is((await settledDocument(server, kb.id, id, 120_000)).status, 'ready');

      const linesOf = (id: string) => subscriber.lines().filter((line) => line.startsWith(`${id} `));
      const done = (id: string) => linesOf(id).at(-1)?.endsWith('→ ready') ?? false;
      await subscriber.waitFor(() => ids.every(done), 'ready line for every document', 60_000);
      const run = await subscriber.stop();

      for (const id of ids) {
        const lines = linesOf(id);
        const steps = lines.map((line) => line.slice(id.length + 1).split(' → '));
        t.is(lines.length, LIFECYCLE.length, `one line per event of ${id}:\n${lines.join('\n')}`);
        steps.forEach((prefix, i) => t.deepEqual(prefix, steps.at(-1)!.slice(0, i + 1), `line ${i + 1} of ${id} is the lifecycle so far`));
        t.true(steps.at(-1)!.length === LIFECYCLE.length && LIFECYCLE.every((step, i) => step.test(steps.at(-1)![i]!)), lines.at(-1));
      }
      const summary = /summary: (\d+) messages, (\d+) events, (\d+) duplicates, (\d+) invalid/.exec(run.stderr);
      t.truthy(summary, run.stderr);
      t.is(summary![4], '0', `messages failing validation:\n${run.stderr}`);
      t.true(Number(summary![2]) >= ids.length * LIFECYCLE.length);
      t.is(run.code, 0, run.stderr);
    } finally {
      await subscriber.stop();
      await server.close();
    }
  });

  test('reports and counts each message that fails its schema, and goes on', async (t) => {
    t.timeout(120_000);
    // A topic of its own: nothing malformed reaches the contract's topics and the service's groups.
    const topic = `kbqa-test.python-subscriber-${randomUUID().slice(0, 8)}`;
    const schemas = schemasNamingDocumentsTopic(topic);
    const kafka = new Kafka({ clientId: 'kbqa-test-python-subscriber', brokers: brokers.split(','), logLevel: logLevel.ERROR });
    const admin = kafka.admin();
    const producer = kafka.producer();
    await admin.connect();
    try {
      await ensureTopics(admin, { partitions: 1, replicationFactor: 1, topics: { ofStream: () => topic, forEventTypes: () => [topic], deadLetter: topic, all: [topic] } });
      await producer.connect();
      const { valid, invalid } = fixtureMessages(topic);
      await producer.send({ topic, messages: [valid, valid, ...invalid] });
      const run = await startPythonSubscriber(found.python, ['--brokers', brokers, '--group', `python-subscriber-test-${randomUUID()}`, '--from-beginning', '--schemas', schemas.path, '--max-messages', String(2 + invalid.length), '--timeout', '90']).finished();

      t.deepEqual(run.stdout.trim().split('\n'), [`${valid.key.slice('document-'.length)} uploaded`], 'the valid event once: its redelivery is a duplicate');
      t.regex(run.stderr, /summary: 6 messages, 1 events, 1 duplicates, 4 invalid/);
      const reports = run.stderr.split('\n').filter((line) => line.startsWith(`invalid ${topic}[0]@`));
      t.is(reports.length, invalid.length, run.stderr);
      t.regex(reports[0]!, /data\/sha256: 'not-a-hash' does not match/);
      t.regex(reports[1]!, /header kbqa-event-type is missing/);
      t.regex(reports[2]!, /the value is not JSON/);
      t.regex(reports[3]!, /the key 'document-doc_someone_else' is not the stream id/);
      t.is(run.code, 1, 'the exit status says some message failed');
    } finally {
      await producer.disconnect();
      await admin.deleteTopics({ topics: [topic] }).catch(() => {});
      await admin.disconnect();
      schemas.remove();
    }
  });
});

/** One DocumentUploaded as the relay encodes it, and four ways a message can break the contract. */
function fixtureMessages(topic: string): { valid: OutgoingMessage; invalid: OutgoingMessage[] } {
  const valid = encodeEvent(documentLifecycle(`doc_${randomUUID().replaceAll('-', '')}`)[0]!, topic);
  const value = JSON.parse(valid.value);
  const { 'kbqa-event-type': _, ...untyped } = valid.headers;
  return {
    valid,
    invalid: [
      { ...valid, value: JSON.stringify({ ...value, data: { ...value.data, sha256: 'not-a-hash' } }) },
      { ...valid, headers: untyped },
      { ...valid, value: 'not json' },
      { ...valid, key: 'document-doc_someone_else' },
    ],
  };
}
