import type { Kafka } from 'kafkajs';
import type { KafkaPublisher } from '../../src/adapters/kafka/producer.ts';
import { type KafkaClientChoice, openPublisher } from '../../src/adapters/kafka/publisher-choice.ts';

/**
 * The publisher the application would open (publisher-choice.ts): librdkafka's when its binding
 * loads, as in CI, where .ci/run insists it was built; KBQA_KAFKA_CLIENT=kafkajs runs the Kafka
 * tests with kafkajs's instead. kafka-bus.contract.test.ts runs the relay contract with both.
 */
export async function openTestPublisher(kafka: Kafka, brokers: readonly string[], clientId = 'kbqa-test'): Promise<KafkaPublisher> {
  const choice = (process.env.KBQA_KAFKA_CLIENT ?? 'auto') as KafkaClientChoice;
  const { publisher } = await openPublisher({ choice, kafka, brokers, clientId, warn: (line) => process.stdout.write(`${line}\n`) });
  return publisher;
}
