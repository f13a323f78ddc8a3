import { Kafka, logLevel } from 'kafkajs';
import { encodeEvent } from '../src/adapters/kafka/messages.ts';
import { ensureTopics } from '../src/adapters/kafka/producer.ts';
import { documentLifecycle, schemasNamingDocumentsTopic } from '../test/helpers/document-topic-fixtures.ts';
import { startPythonSubscriber, subscriberPython } from '../test/helpers/python-subscriber.ts';
import { log, round } from './util.ts';

/**
 * How fast the Python subscriber (examples/python-subscriber) reads, checks and prints a backlog
 * from a real broker (KAFKA_BROKERS; `npm run kafka:up`): documents' four lifecycle events as the
 * relay encodes them, on a topic of the bench's own, read from the beginning by a new group.
 */
const DOCUMENTS = Number(process.env.KBQA_BENCH_SUBSCRIBER_DOCS ?? 2500);
const PARTITIONS = 3;
const SEND_BATCH = 1000;

export async function pythonSubscriberBench() {
  const brokers = process.env.KAFKA_BROKERS;
  if (!brokers) return { pass: true, skipped: 'KAFKA_BROKERS not set; run `npm run kafka:up` and export the line it prints' };
  const found = subscriberPython();
  if ('missing' in found) return { pass: true, skipped: found.missing };
  const topic = `kbqa-bench.python-subscriber-${Date.now()}`;
  const schemas = schemasNamingDocumentsTopic(topic);
  const kafka = new Kafka({ clientId: 'kbqa-bench', brokers: brokers.split(','), logLevel: logLevel.ERROR });
  const admin = kafka.admin();
  const producer = kafka.producer();
  await admin.connect();
  try {
    await ensureTopics(admin, { partitions: PARTITIONS, replicationFactor: 1, topics: { ofStream: () => topic, forEventTypes: () => [topic], deadLetter: topic, all: [topic] } });
    await producer.connect();
    const messages = Array.from({ length: DOCUMENTS }, (_, i) => documentLifecycle(`doc_bench${i}`, 4 * i + 1)).flat().map((event) => encodeEvent(event, topic));
    for (let i = 0; i < messages.length; i += SEND_BATCH) await producer.send({ topic, messages: messages.slice(i, i + SEND_BATCH) });

    const started = performance.now();
    const subscriber = startPythonSubscriber(found.python, ['--brokers', brokers, '--group', topic, '--from-beginning', '--schemas', schemas.path, '--max-messages', String(messages.length), '--timeout', '600']);
    // Polled every 50 ms: the reading starts within that of this instant.
    await subscriber.waitFor(() => subscriber.stderr().includes('assigned '), 'partition assignment', 60_000);
    const assignedAt = performance.now();
    const run = await subscriber.finished();
    const ended = performance.now();
    const lines = run.stdout.split('\n').filter(Boolean).length;
    const summary = /summary: (\d+) messages, (\d+) events, (\d+) duplicates, (\d+) invalid/.exec(run.stderr);
    const readSeconds = (ended - assignedAt) / 1000;
    const perSecond = round(messages.length / readSeconds);
    log(`python_subscriber: ${messages.length} messages in ${round(readSeconds, 2)} s after assignment = ${perSecond}/s (${round((ended - started) / 1000, 2)} s from start)`);
    return {
      documents: DOCUMENTS,
      messages: messages.length,
      partitions: PARTITIONS,
      seconds_from_start: round((ended - started) / 1000, 2),
      seconds_to_assignment: round((assignedAt - started) / 1000, 2),
      seconds_after_assignment: round(readSeconds, 2),
      messages_per_second: perSecond,
      lines_printed: lines,
      invalid: Number(summary?.[4] ?? NaN),
      exit_code: run.code,
      pass: run.code === 0 && lines === messages.length && summary?.[4] === '0',
    };
  } finally {
    await producer.disconnect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => {});
    await admin.disconnect();
    schemas.remove();
  }
}
