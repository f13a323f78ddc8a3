/** What one member of a consumer group knows about one partition assigned to it. */
export type PartitionProgress = {
  /** Highest global position this member handled, parked or passed over in the partition. */
  handled: bigint;
  /** The partition's last fetch ended at its high watermark and everything fetched is committed. */
  caughtUp: boolean;
};

/**
 * A group's position from its partitions: the highest position handled anywhere, held back by
 * every partition that still has work fetched or pending (within a partition positions grow, so
 * everything at or below its `handled` is done). Never below `floor`, so it never moves back.
 *
 * An approximation, because Kafka orders per partition and not across them: a partition caught
 * up at its last fetch does not hold the position back, although the relay may have written to
 * it since; and a partition this member has not fetched from yet is not known to be behind.
 * It is exact with one partition, and always exact once every partition is caught up.
 */
export function groupPosition(partitions: Iterable<PartitionProgress>, floor: bigint): bigint {
  let highest = floor;
  let hold: bigint | null = null;
  for (const { handled, caughtUp } of partitions) {
    if (handled > highest) highest = handled;
    if (!caughtUp && (hold === null || handled < hold)) hold = handled;
  }
  const position = hold !== null && hold < highest ? hold : highest;
  return position > floor ? position : floor;
}

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/** The per-partition progress of one member, and the group position it gives. */
export function createGroupProgress(start: bigint) {
  const partitions = new Map<string, PartitionProgress & { topic: string; partition: number }>();
  let position = start;
  const recompute = () => (position = groupPosition(partitions.values(), position));
  return {
    position: () => position,
    /** Work fetched from the partition is under way: it holds the position at what it has handled. */
    begin(topic: string, partition: number): bigint {
      const known = partitions.get(keyOf(topic, partition));
      partitions.set(keyOf(topic, partition), { topic, partition, handled: known?.handled ?? 0n, caughtUp: false });
      return recompute();
    },
    /** Entries were committed up to `handled` (null: only entries whose position was not read). */
    advance(topic: string, partition: number, handled: bigint | null, caughtUp: boolean): bigint {
      const known = partitions.get(keyOf(topic, partition));
      const before = known?.handled ?? 0n;
      const after = handled !== null && handled > before ? handled : before;
      partitions.set(keyOf(topic, partition), { topic, partition, handled: after, caughtUp });
      return recompute();
    },
    /** After a rebalance: partitions now owned by another member are theirs to account for. */
    retain(assignment: Readonly<Record<string, readonly number[]>>): bigint {
      for (const [key, p] of partitions) if (!assignment[p.topic]?.includes(p.partition)) partitions.delete(key);
      return recompute();
    },
  };
}
