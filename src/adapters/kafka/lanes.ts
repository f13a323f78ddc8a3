import { Partitioners, type PartitionMetadata } from 'kafkajs';
import type { OutgoingMessage } from './messages.ts';

/** A message with the partition it must go to, so a lane's producer sends it there and nowhere else. */
export type PlacedMessage = OutgoingMessage & { partition: number };

const javaCompatible = Partitioners.DefaultPartitioner();
const metadataCache = new Map<number, PartitionMetadata[]>();

/** Only the count matters to the murmur2 partitioner: a key goes to murmur2(key) mod partitions. */
function metadataOf(partitions: number): PartitionMetadata[] {
  let metadata = metadataCache.get(partitions);
  if (!metadata) {
    metadata = Array.from({ length: partitions }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
    metadataCache.set(partitions, metadata);
  }
  return metadata;
}

/** The partition Kafka's Java client (and kafkajs's default partitioner) would choose for this key. */
export function partitionOfKey(topic: string, key: string, partitions: number): number {
  return javaCompatible({ topic, partitionMetadata: metadataOf(partitions), message: { key, value: null } });
}

/**
 * Splits a publish among `lanes` producers by partition (partition mod lanes), each lane keeping
 * the messages' order. A partition belongs to one lane, so its records arrive in log order
 * (positions grow within a partition, as the consumers' group position assumes) while the lanes'
 * requests overlap: one lane's records are encoded while another waits for the broker.
 */
export function splitIntoLanes(messages: readonly OutgoingMessage[], partitionsOf: (topic: string) => number, lanes: number): PlacedMessage[][] {
  const split: PlacedMessage[][] = Array.from({ length: lanes }, () => []);
  for (const message of messages) {
    const partition = partitionOfKey(message.topic, message.key, partitionsOf(message.topic));
    split[partition % lanes]!.push({ ...message, partition });
  }
  return split;
}
