import type { Kafka } from 'kafkajs';
import { createNativePublisher, loadNativeKafka, NATIVE_KAFKA_PACKAGE, type NativeKafka } from './native-producer.ts';
import { createKafkaPublisher, type KafkaPublisher } from './producer.ts';

/** KBQA_KAFKA_CLIENT: 'auto' takes librdkafka when its binding loads, else kafkajs; the others insist. */
export type KafkaClientChoice = 'auto' | 'kafkajs' | 'native';
export type PublisherClient = 'native' | 'kafkajs';

export type PublisherChoiceOptions = {
  choice: KafkaClientChoice;
  kafka: Kafka;
  brokers: readonly string[];
  clientId: string;
  /** The one line saying why kafkajs publishes under 'auto'. */
  warn: (message: string) => void;
  load?: () => NativeKafka;
};

/**
 * The publisher of the relay and the dead letters: librdkafka's (native-producer.ts, about half the CPU
 * an event) when its binding loads, kafkajs's otherwise; both give the same guarantees. Only a
 * binding that cannot be loaded falls back: one that loads but cannot connect fails as kafkajs
 * would. Consumers and the admin client stay on kafkajs either way.
 */
export async function openPublisher({ choice, kafka, brokers, clientId, warn, load = loadNativeKafka }: PublisherChoiceOptions): Promise<{ publisher: KafkaPublisher; client: PublisherClient }> {
  if (choice !== 'kafkajs') {
    let native: NativeKafka | null = null;
    try {
      native = load();
    } catch (error) {
      const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      if (choice === 'native') throw new Error(`KBQA_KAFKA_CLIENT=native, but ${NATIVE_KAFKA_PACKAGE} cannot be loaded: ${why}`, { cause: error });
      warn(`kafka: the relay publishes with kafkajs, since ${NATIVE_KAFKA_PACKAGE} (librdkafka) cannot be loaded: ${why}`);
    }
    if (native) {
      const loaded = native;
      return { publisher: await createNativePublisher({ brokers, clientId, load: () => loaded }), client: 'native' };
    }
  }
  return { publisher: await createKafkaPublisher(kafka), client: 'kafkajs' };
}
