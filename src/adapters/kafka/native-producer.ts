import { createRequire } from 'node:module';
import type { OutgoingMessage } from './messages.ts';
import type { KafkaPublisher } from './producer.ts';

/**
 * The optional dependency with librdkafka inside (Confluent's Node binding). It is built when the
 * project is installed and may be missing (an `npm ci` that could not build it skips it), so it is
 * loaded at run time and typed here by the little this adapter uses.
 */
export const NATIVE_KAFKA_PACKAGE = '@confluentinc/kafka-javascript';

type DeliveryError = Error & { code?: number };
type Header = Record<string, string>;
type NativeProducer = {
  connect(options: { timeout?: number }, callback: (error: Error | null) => void): unknown;
  setPollInBackground(on: boolean): unknown;
  produce(topic: string, partition: null, value: Buffer, key: string, timestamp: number, opaque: unknown, headers: Header[]): unknown;
  on(event: 'delivery-report', listener: (error: DeliveryError | null, report: { opaque: unknown }) => void): unknown;
  on(event: 'event.error', listener: (error: DeliveryError) => void): unknown;
  disconnect(timeoutMs: number, callback: (error: Error | null) => void): unknown;
  getMetadata(options: { topic: string; timeout: number }, callback: (error: Error | null) => void): unknown;
};
export type NativeKafka = { Producer: new (config: Record<string, string | number | boolean>) => NativeProducer; librdkafkaVersion: string };

/** Loads the binding; throws (module missing, or its compiled part not loadable) when it cannot. */
export const loadNativeKafka = (): NativeKafka => createRequire(import.meta.url)(NATIVE_KAFKA_PACKAGE) as NativeKafka;

/** librdkafka's codes this adapter acts on (rdkafka.h). */
const QUEUE_FULL = -184;
const FATAL = -150;
const UNKNOWN_TOPIC = new Set([-188, 3]);

/** One publish: settled once every message it produced has its delivery report. */
type Pending = { left: number; failure: DeliveryError | null; settle: () => void };

export type NativePublisherOptions = {
  brokers: readonly string[];
  clientId: string;
  /** librdkafka properties over the defaults below (a test shortens `topic.metadata.propagation.max.ms`). */
  settings?: Record<string, string | number | boolean>;
  load?: () => NativeKafka;
};

/**
 * The relay's and the dead letters' producer on librdkafka, with the guarantees of kafkajs's in
 * producer.ts: idempotent (`acks` all, up to 5 requests in flight per broker, which librdkafka's
 * idempotent producer keeps in order: a partition is never reordered, a retried duplicate is
 * dropped by the broker), keys partitioned by the Java client's murmur2 (`murmur2_random`: the
 * same partition as kafkajs's DefaultPartitioner), no topic created by publishing. `publish`
 * resolves once the broker acknowledged every message and rejects, once every report is in, if
 * any failed, so the relay retries the batch. librdkafka batches per partition itself, each
 * request under `batch.size` and `message.max.bytes` (1,000,000 bytes, under the broker's limit),
 * so publishes need no chunking here. Records are encoded and checksummed in C on librdkafka's
 * threads, which is why it takes about half the CPU an event kafkajs does (docs/benchmarks.md).
 */
export async function createNativePublisher({ brokers, clientId, settings = {}, load = loadNativeKafka }: NativePublisherOptions): Promise<KafkaPublisher> {
  const { Producer } = load();
  const config = {
    'bootstrap.servers': brokers.join(','),
    'client.id': clientId,
    'enable.idempotence': true,
    acks: -1,
    'max.in.flight.requests.per.connection': 5,
    partitioner: 'murmur2_random',
    'allow.auto.create.topics': false,
    // The relay waits for each batch, so a long linger only adds to every batch's wait.
    'linger.ms': 1,
    // A message not acknowledged in this time fails its publish, which the relay then retries.
    'message.timeout.ms': 60_000,
    dr_cb: true,
    ...settings,
  };
  let current = await connect(new Producer(config));
  // A fatal error (the idempotent producer's state lost) leaves the instance unusable: the next publish makes a new one.
  let fatal = false;
  // Publishes waiting for room in librdkafka's queue: any delivery report wakes them.
  const waiting: (() => void)[] = [];

  async function connect(producer: NativeProducer): Promise<NativeProducer> {
    await new Promise<void>((resolve, reject) => producer.connect({ timeout: 30_000 }, (error) => (error ? reject(error) : resolve())));
    producer.on('event.error', (error) => {
      if (error.code === FATAL) fatal = true;
    });
    producer.on('delivery-report', (error, { opaque }) => {
      const pending = opaque as Pending;
      if (error) pending.failure ??= error;
      if (--pending.left === 0) pending.settle();
      if (waiting.length > 0) for (const wake of waiting.splice(0)) wake();
    });
    producer.setPollInBackground(true);
    return producer;
  }

  const roomOrTimeout = () => new Promise<void>((resolve) => {
    waiting.push(resolve);
    setTimeout(resolve, 100).unref();
  });

  async function publish(messages: readonly OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    if (fatal) {
      const old = current;
      fatal = false;
      current = await connect(new Producer(config));
      old.disconnect(0, () => {});
    }
    const producer = current;
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    // One more than the messages: the loop below holds it until it has handed over every one it could.
    const pending: Pending = { left: messages.length + 1, failure: null, settle };
    let produced = 0;
    const refreshed = new Set<string>();
    while (produced < messages.length) {
      const { topic, key, value, headers } = messages[produced]!;
      try {
        producer.produce(topic, null, Buffer.from(value), key, 0, pending, Object.entries(headers).map(([name, text]) => ({ [name]: text })));
        produced++;
      } catch (error) {
        const code = (error as DeliveryError).code ?? 0;
        if (code === QUEUE_FULL) {
          await roomOrTimeout();
          continue;
        }
        if (UNKNOWN_TOPIC.has(code) && !refreshed.has(topic)) {
          refreshed.add(topic);
          await refreshTopic(producer, topic);
          continue;
        }
        // Refused outright (a message too large, a topic known not to exist): the rest is not sent.
        pending.failure ??= error as DeliveryError;
        break;
      }
    }
    pending.left -= messages.length - produced + 1;
    if (pending.left === 0) settle();
    await done;
    if (pending.failure && UNKNOWN_TOPIC.has(pending.failure.code ?? 0)) await Promise.all([...new Set(messages.map((m) => m.topic))].map((topic) => refreshTopic(producer, topic)));
    if (pending.failure) throw new Error(`kafka: a publish of ${messages.length} messages was not acknowledged: ${pending.failure.message}`, { cause: pending.failure });
  }

  /**
   * librdkafka remembers a topic the broker said does not exist and refuses it until its next
   * metadata refresh, minutes away: ask now, so a topic created meanwhile is found.
   */
  const refreshTopic = (producer: NativeProducer, topic: string) =>
    new Promise<void>((resolve) => producer.getMetadata({ topic, timeout: 5000 }, () => resolve()));

  return {
    publish,
    close: () => new Promise<void>((resolve, reject) => current.disconnect(30_000, (error) => (error ? reject(error) : resolve()))),
  };
}
