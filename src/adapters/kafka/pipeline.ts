import type { Consumer } from 'kafkajs';
import { type BatchControl, type BatchDeps, type ReadEntry, readEntry } from './consume-batch.ts';
import { committable, planSegments, type Segment } from './delivery.ts';
import { type HandOver, handOver, Interrupted } from './hand-over.ts';
import type { IncomingMessage } from './messages.ts';

/** What of kafkajs's consumer the pipeline steers: which partitions it fetches, from where, and what is committed. */
export type PipelineConsumer = Pick<Consumer, 'pause' | 'resume' | 'commitOffsets' | 'seek'>;

export type PipelineControl = Pick<BatchControl, 'batch' | 'resolveOffset' | 'isStale'>;

/** `limit`: events in hand at once, over every partition (the group's `inFlight`). */
export type PipelineDeps = Omit<BatchDeps, 'heartbeatMs'> & { consumer: PipelineConsumer; limit: number };

/**
 * Messages taken from a partition, kept until the in-order prefix they are in is committed: one
 * per message in hand, and one for each run of done messages (merged: its last offset, its
 * highest position), so a line stays within about twice the events in hand however many messages
 * the group passes over behind a slow one.
 */
type Taken = { offset: string; position: bigint | null; done: boolean };

/** A message of a slice still to deliver, and where its line keeps it. */
type Pending = { taken: Taken; entry: ReadEntry; message: IncomingMessage };

/** A partition as this member has taken it since it was assigned (or sought back), in offset order. */
type Line = { topic: string; partition: number; taken: Taken[]; next: bigint | null; highWatermark: string; committing: Promise<void> };

export type Pipeline = {
  eachBatch(control: PipelineControl): Promise<void>;
  /** The group was joined again: kafkajs fetches every partition from its committed offset, and the lines start over. */
  reset(): void;
  /** Takes nothing more; resolves once everything in hand has ended and what finished is committed. */
  drain(): Promise<void>;
};

const keyOf = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/**
 * Pipelined fetching for a group with `inFlight` (the runner): a fetched batch is handed to the
 * group slice by slice and resolved as soon as it is taken, not when it is handled, so kafkajs
 * fetches the partition again at once and a slow event holds back no later one. What is committed
 * is ours to track: per partition, the prefix of taken messages that are done (`committable`), so
 * a crash delivers again everything from the first unfinished message on. At `limit` events in
 * hand a partition is paused (kafkajs fetches it again from the last message taken once resumed),
 * so memory stays bounded.
 */
export function createPipeline(deps: PipelineDeps): Pipeline {
  const batchSize = deps.group.batchSize ?? 500;
  const lines = new Map<string, Line>();
  const paused = new Map<string, { topic: string; partitions: number[] }>();
  const working = new Set<Promise<void>>();
  let held = 0;
  let stopping = false;

  const fits = (size: number) => held === 0 || held + size <= deps.limit;
  const ours = (line: Line) => lines.get(keyOf(line.topic, line.partition)) === line;
  const pausePartition = (topic: string, partition: number) => {
    paused.set(keyOf(topic, partition), { topic, partitions: [partition] });
    deps.consumer.pause([{ topic, partitions: [partition] }]);
  };
  // Resumed once a whole slice fits again: a partition resumed for one free place would be paused again at its next batch.
  const resumeIfRoom = () => {
    if (stopping || paused.size === 0 || !fits(Math.min(batchSize, deps.limit))) return;
    const all = [...paused.values()];
    paused.clear();
    deps.consumer.resume(all);
  };

  // A line replaced (after a rebalance, or a seek after a failure) commits nothing more: the partition's offsets are its successor's.
  const commit = (line: Line) =>
    (line.committing = line.committing
      .then(async () => {
        const entries = line.taken.map((t) => ({ offset: t.offset, event: null, position: t.position }));
        const ready = ours(line) ? committable(entries, line.taken.map((t) => t.done)) : null;
        if (!ready) return;
        line.taken.splice(0, ready.last + 1);
        await deps.consumer.commitOffsets([{ topic: line.topic, partition: line.partition, offset: ready.commitOffset }]);
        const caughtUp = line.taken.length === 0 && BigInt(ready.commitOffset) >= BigInt(line.highWatermark);
        await deps.progress(line.topic, line.partition, { position: ready.position, caughtUp });
      })
      // A commit that failed is carried by the next one, which passes at least as far.
      .catch((error: unknown) => deps.onError(error)));

  const deliver = async (line: Line, slice: Pending[]) => {
    const where = (offset: string) => ({ topic: line.topic, partition: line.partition, offset });
    // Unreadable messages first: if the dead letter cannot be published, the handler has not run.
    for (const t of slice) {
      if (!t.entry.unreadable) continue;
      await deps.parkUnreadable(t.message, t.entry.unreadable.error, where(t.entry.offset));
      t.taken.done = true;
    }
    const events = slice.filter((t) => t.entry.event !== null);
    if (events.length === 0) return;
    const handing: HandOver = {
      group: deps.group,
      backoff: deps.backoff,
      live: () => !stopping && ours(line),
      park: (event, error, offset) => deps.park(event, error, where(offset)),
      ...(deps.random && { random: deps.random }),
    };
    await handOver(events.map((t) => t.entry.event!), events.map((t) => t.entry.offset), handing, (k) => (events[k]!.taken.done = true));
  };

  // A dead letter that could not be published: Kafka delivers the partition again from its first
  // message not done (as a failed batch is fetched again); what is still in hand ends on its own.
  const fail = (line: Line, error: unknown) => {
    if (error instanceof Interrupted) return;
    deps.onError(error);
    if (!ours(line)) return;
    lines.delete(keyOf(line.topic, line.partition));
    const first = line.taken.find((t) => !t.done);
    if (first) deps.consumer.seek({ topic: line.topic, partition: line.partition, offset: first.offset });
  };

  const take = (line: Line, control: PipelineControl, entries: ReadEntry[], messages: IncomingMessage[], segment: Segment) => {
    const slice: Pending[] = [];
    for (let i = segment.from; i <= segment.to; i++) {
      const entry = entries[i]!;
      const done = entry.event === null && !entry.unreadable;
      const last = line.taken.at(-1);
      if (done && last?.done) {
        last.offset = entry.offset;
        if (entry.position !== null && (last.position === null || entry.position > last.position)) last.position = entry.position;
        continue;
      }
      const taken = { offset: entry.offset, position: entry.position, done };
      line.taken.push(taken);
      if (!done) slice.push({ taken, entry, message: messages[i]! });
    }
    const last = entries[segment.to]!.offset;
    line.next = BigInt(last) + 1n;
    control.resolveOffset(last);
    const size = segment.events.length;
    held += size;
    const work: Promise<void> = deliver(line, slice)
      .catch((error: unknown) => fail(line, error))
      .then(() => commit(line))
      .finally(() => {
        held -= size;
        working.delete(work);
        resumeIfRoom();
      });
    working.add(work);
  };

  return {
    async eachBatch(control) {
      const { topic, partition, highWatermark } = control.batch;
      // Stopping: paused rather than left unresolved, which kafkajs would fetch again at once.
      if (stopping) return pausePartition(topic, partition);
      if (control.isStale()) return;
      let line = lines.get(keyOf(topic, partition));
      if (!line) lines.set(keyOf(topic, partition), (line = { topic, partition, taken: [], next: null, highWatermark, committing: Promise.resolve() }));
      line.highWatermark = highWatermark;
      const from = line.next;
      const messages = from === null ? control.batch.messages : control.batch.messages.filter((m) => BigInt(m.offset) >= from);
      if (messages.length === 0) return;
      const entries = messages.map((m, i) => readEntry(m, deps, i === messages.length - 1));
      await deps.progress(topic, partition, null);
      if (stopping) return pausePartition(topic, partition);
      for (const segment of planSegments(entries, batchSize)) {
        if (!fits(segment.events.length)) return pausePartition(topic, partition);
        take(line, control, entries, messages, segment);
      }
    },
    reset: () => lines.clear(),
    async drain() {
      stopping = true;
      while (working.size > 0) await Promise.all(working);
    },
  };
}
