import test from 'ava';
import type { AnyDomainEvent } from '../../schemas/events/index.ts';
import { encodeEvent, type IncomingMessage } from '../../src/adapters/kafka/messages.ts';
import { createPipeline, type PipelineConsumer, type PipelineDeps } from '../../src/adapters/kafka/pipeline.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';

const KB_DELETED = { type: 'KnowledgeBaseDeleted', data: { knowledge_base_id: 'kb', deleted_at: '2026-01-01T00:00:00.000Z' } } as const satisfies AnyDomainEvent;

/** Messages at offsets `from`, `from + 1` …; the event at offset n is `e<n>`, at global position n + 1. */
function messages(from: number, count: number): IncomingMessage[] {
  return Array.from({ length: count }, (_, k) => {
    const n = from + k;
    const event: RecordedEvent = { id: `e${n}`, ...KB_DELETED, streamId: 's', revision: n, position: BigInt(n + 1), metadata: { schemaVersion: 1 }, recordedAt: '' };
    const m = encodeEvent(event, 't');
    return { key: Buffer.from(m.key), value: Buffer.from(m.value), offset: String(n), headers: m.headers };
  });
}

/** kafkajs's consumer as far as the pipeline steers it, recording what it is told. */
function fakeConsumer() {
  const log = { commits: [] as string[], paused: [] as number[], resumed: [] as number[], seeks: [] as string[] };
  const consumer: PipelineConsumer = {
    pause: (tps) => void log.paused.push(...tps.flatMap((tp) => tp.partitions ?? [])),
    resume: (tps) => void log.resumed.push(...tps.flatMap((tp) => tp.partitions ?? [])),
    commitOffsets: async (offsets) => void log.commits.push(...offsets.map((o) => o.offset)),
    seek: ({ offset }) => void log.seeks.push(offset),
  };
  return { consumer, log };
}

/** A handler that holds each event until the test lets it go (by id). */
function gated() {
  const gates = new Map<string, { resolve(): void; reject(error: Error): void }>();
  const handle = (batch: RecordedEvent[]) => new Promise<void>((resolve, reject) => gates.set(batch[0]!.id, { resolve, reject }));
  return { gates, handle };
}

function pipelineOf(handle: (batch: RecordedEvent[]) => Promise<void>, limit: number, overrides: Partial<PipelineDeps> = {}) {
  const { consumer, log } = fakeConsumer();
  const resolved: string[] = [];
  const pipeline = createPipeline({
    group: { name: 'g', batchSize: 1, inFlight: limit, handle },
    backoff: { attempts: 1, baseMs: 1, maxMs: 1 },
    park: async () => {},
    parkUnreadable: async () => {},
    progress: async () => {},
    onError: () => {},
    consumer,
    limit,
    ...overrides,
  });
  const batch = (from: number, count: number) =>
    pipeline.eachBatch({
      batch: { topic: 't', partition: 0, highWatermark: String(from + count), messages: messages(from, count) },
      resolveOffset: (offset) => void resolved.push(offset),
      isStale: () => false,
    });
  return { pipeline, batch, log, resolved };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

test('a batch is resolved as it is taken, a later batch is taken while the first is in hand, and the commit passes only the finished prefix', async (t) => {
  const { gates, handle } = gated();
  const { batch, log, resolved } = pipelineOf(handle, 10);
  await batch(0, 2);
  t.deepEqual(resolved, ['0', '1'], 'resolved before anything was handled: kafkajs fetches on');
  await batch(2, 1);
  t.deepEqual([...gates.keys()], ['e0', 'e1', 'e2']);
  gates.get('e1')!.resolve();
  gates.get('e2')!.resolve();
  await settle();
  t.deepEqual(log.commits, [], 'e0 is in hand: nothing may be committed past it');
  gates.get('e0')!.resolve();
  await settle();
  t.is(log.commits.at(-1), '3');
});

test('at the limit the partition is paused, the rest of the batch left unresolved, and resumed once a slice fits', async (t) => {
  const { gates, handle } = gated();
  const { batch, log, resolved } = pipelineOf(handle, 2);
  await batch(0, 4);
  t.deepEqual(resolved, ['0', '1'], 'kafkajs fetches e2 again once resumed');
  t.deepEqual(log.paused, [0]);
  gates.get('e0')!.resolve();
  await settle();
  t.deepEqual(log.resumed, [0]);
  t.deepEqual(log.commits, ['1']);
});

test('a dead letter that cannot be published sends the partition back to its first message not done', async (t) => {
  const errors: unknown[] = [];
  const { batch, log } = pipelineOf(async (b) => {
    if (b[0]!.id === 'e1') throw new Error('poison');
  }, 10, {
    park: async () => {
      throw new Error('dead-letter topic unavailable');
    },
    onError: (error) => void errors.push(error),
  });
  await batch(0, 3);
  await settle();
  t.deepEqual(log.seeks, ['1']);
  t.regex(String(errors[0]), /dead-letter topic unavailable/);
  t.deepEqual(log.commits, [], 'the line was replaced: its successor commits from offset 1 on');
});

test('stopping gives up what is not done, uncommitted, and waits for the rest; a rejoined group commits nothing for the lines before it', async (t) => {
  const { gates, handle } = gated();
  const { pipeline, batch, log } = pipelineOf(handle, 10);
  await batch(0, 2);
  pipeline.reset();
  gates.get('e0')!.resolve();
  gates.get('e1')!.resolve();
  await settle();
  t.deepEqual(log.commits, [], 'after a rebalance the partition may be another member\'s');
  await batch(0, 2);
  gates.get('e0')!.resolve();
  const drained = pipeline.drain();
  gates.get('e1')!.reject(new Error('the runner is stopping'));
  await drained;
  t.deepEqual(log.commits, ['1'], 'e0 handled: committed; e1 given up: not');
  await batch(2, 1);
  t.deepEqual(log.paused, [0], 'a batch fetched while stopping is not taken');
});
