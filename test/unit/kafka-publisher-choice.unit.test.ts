import test from 'ava';
import type { Kafka } from 'kafkajs';
import type { NativeKafka } from '../../src/adapters/kafka/native-producer.ts';
import { openPublisher } from '../../src/adapters/kafka/publisher-choice.ts';

/** A kafkajs client whose producer connects to nothing: enough for createKafkaPublisher. */
function fakeKafkajs() {
  const connected: string[] = [];
  const kafka = { producer: () => ({ connect: async () => void connected.push('kafkajs'), disconnect: async () => {}, sendBatch: async () => [] }) } as unknown as Kafka;
  return { kafka, connected };
}

const unloadable = () => {
  throw new Error("Cannot find module '@confluentinc/kafka-javascript'\nRequire stack:\n- somewhere");
};

/** A binding whose producer connects at once and acknowledges nothing (enough to be chosen). */
function fakeNative(): NativeKafka {
  class Producer {
    connect(_options: unknown, callback: (error: Error | null) => void) {
      callback(null);
    }
    on() {}
    setPollInBackground() {}
    produce() {}
    getMetadata() {}
    disconnect(_timeout: number, callback: (error: Error | null) => void) {
      callback(null);
    }
  }
  return { Producer, librdkafkaVersion: 'fake' } as unknown as NativeKafka;
}

const options = { brokers: ['127.0.0.1:1'], clientId: 'kbqa-test' };

test("auto: a binding that cannot be loaded falls back to kafkajs, with one line saying why", async (t) => {
  const { kafka, connected } = fakeKafkajs();
  const warnings: string[] = [];
  const { client, publisher } = await openPublisher({ ...options, choice: 'auto', kafka, load: unloadable, warn: (line) => warnings.push(line) });
  t.is(client, 'kafkajs');
  t.deepEqual(connected, ['kafkajs']);
  t.is(warnings.length, 1);
  t.regex(warnings[0]!, /kafkajs.*@confluentinc\/kafka-javascript.*cannot be loaded: Cannot find module '@confluentinc\/kafka-javascript'$/);
  await publisher.close();
});

test('auto: a binding that loads is chosen, kafkajs is not connected', async (t) => {
  const { kafka, connected } = fakeKafkajs();
  const warnings: string[] = [];
  const { client, publisher } = await openPublisher({ ...options, choice: 'auto', kafka, load: fakeNative, warn: (line) => warnings.push(line) });
  t.is(client, 'native');
  t.deepEqual(connected, []);
  t.deepEqual(warnings, []);
  await publisher.publish([]);
  await publisher.close();
});

test('native: a binding that cannot be loaded is an error, not a fallback', async (t) => {
  const { kafka, connected } = fakeKafkajs();
  const error = await t.throwsAsync(openPublisher({ ...options, choice: 'native', kafka, load: unloadable, warn: () => t.fail('no fallback') }));
  t.regex(error!.message, /KBQA_KAFKA_CLIENT=native, but @confluentinc\/kafka-javascript cannot be loaded/);
  t.deepEqual(connected, []);
});

test('kafkajs: the binding is not even loaded', async (t) => {
  const { kafka, connected } = fakeKafkajs();
  const { client } = await openPublisher({ ...options, choice: 'kafkajs', kafka, load: () => t.fail('loaded') as never, warn: () => t.fail('no warning') });
  t.is(client, 'kafkajs');
  t.deepEqual(connected, ['kafkajs']);
});

test('KBQA_KAFKA_CLIENT is auto unless set, and only auto, kafkajs or native', async (t) => {
  const { loadConfig } = await import('../../src/config.ts');
  t.is(loadConfig({ KAFKA_BROKERS: 'k:9092' }).distributed.kafka?.client, 'auto');
  t.is(loadConfig({ KAFKA_BROKERS: 'k:9092', KBQA_KAFKA_CLIENT: 'kafkajs' }).distributed.kafka?.client, 'kafkajs');
  t.throws(() => loadConfig({ KAFKA_BROKERS: 'k:9092', KBQA_KAFKA_CLIENT: 'rdkafka' }), { message: /KBQA_KAFKA_CLIENT/ });
});
