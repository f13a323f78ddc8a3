import test from 'ava';
import type { Offsets } from 'kafkajs';
import type { AnyDomainEvent } from '../../schemas/events/index.ts';
import { type BatchDeps, consumeBatch } from '../../src/adapters/kafka/consume-batch.ts';
import { encodeEvent, type IncomingMessage } from '../../src/adapters/kafka/messages.ts';
import { PermanentError } from '../../src/lib/retry.ts';
import type { ConsumerGroup } from '../../src/ports/event-bus.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';

const FIRST_OFFSET = 10;

const T0 = '2026-01-01T00:00:00.000Z';
/** The events the letters stand for: catalog types, since a message is parsed by its type's schema. */
const KINDS = {
  A: { type: 'WorkspaceCreated', data: { workspace_id: 'w', name: 'a', created_at: T0 } },
  B: { type: 'WorkflowDeleted', data: { workflow_id: 'wf', deleted_at: T0 } },
  P: { type: 'ApiKeyRevoked', data: { key_id: 'k', revoked_at: T0 } },
} as const satisfies Record<string, AnyDomainEvent>;
type Kind = keyof typeof KINDS;

/** Messages as the relay writes them, at offsets 10, 11 …; event i has global position i + 1. */
function messages(kinds: Kind[]): IncomingMessage[] {
  return kinds.map((kind, i) => {
    const event: RecordedEvent = { id: `e${i}`, ...KINDS[kind], streamId: 's-1', revision: i, position: BigInt(i + 1), metadata: { schemaVersion: 1 }, recordedAt: '' };
    const m = encodeEvent(event, 't');
    return { key: Buffer.from(m.key), value: Buffer.from(m.value), offset: String(FIRST_OFFSET + i), headers: m.headers };
  });
}

/** A kafkajs eachBatch payload for one partition that records what the consumer resolves and commits. */
function control(batch: IncomingMessage[], { heartbeat = async () => {} } = {}) {
  const log = { commits: [] as string[], resolved: [] as string[], running: true };
  const highWatermark = String(FIRST_OFFSET + batch.length);
  const payload = {
    batch: { topic: 't', partition: 0, highWatermark, messages: batch },
    resolveOffset: (offset: string) => void log.resolved.push(offset),
    heartbeat,
    commitOffsetsIfNecessary: async (offsets?: Offsets) => void log.commits.push(offsets!.topics[0]!.partitions[0]!.offset),
    isRunning: () => log.running,
    isStale: () => false,
  };
  return { payload, log };
}

function deps(group: Partial<ConsumerGroup> & Pick<ConsumerGroup, 'handle'>, overrides: Partial<BatchDeps> = {}) {
  const seen = { parked: [] as string[], parkedAt: [] as string[], unreadable: [] as { message: IncomingMessage; offset: string }[], progress: [] as unknown[], errors: [] as unknown[] };
  const d: BatchDeps = {
    group: { name: 'g', ...group },
    backoff: { attempts: 3, baseMs: 1, maxMs: 2 },
    heartbeatMs: 5,
    park: async (event, _error, where) => {
      seen.parked.push(event.id);
      seen.parkedAt.push(where.offset);
    },
    parkUnreadable: async (message, _error, where) => void seen.unreadable.push({ message, offset: where.offset }),
    progress: async (_topic, _partition, committed) => void seen.progress.push(committed),
    onError: (error) => void seen.errors.push(error),
    ...overrides,
  };
  return { d, seen };
}

const ids = (batch: RecordedEvent[]) => batch.map((e) => e.id);

test('unwanted types are passed over and committed past; events go to the group in slices, each committed after it', async (t) => {
  const handled: string[][] = [];
  const { payload, log } = control(messages(['A', 'B', 'A', 'A', 'B']));
  const { d, seen } = deps({ eventTypes: new Set([KINDS.A.type]), batchSize: 2, handle: async (b) => void handled.push(ids(b)) });
  await consumeBatch(payload, d);
  t.deepEqual(handled, [['e0', 'e2'], ['e3']]);
  t.deepEqual(log.commits, ['13', '15'], 'the next offset to read, after each slice');
  t.deepEqual(log.resolved, ['12', '14']);
  t.deepEqual(seen.progress, [null, { position: 3n, caughtUp: false }, { position: 5n, caughtUp: true }], 'the unwanted last message still tells its position');
});

test('a failing handler is retried, and nothing is committed until it succeeds', async (t) => {
  let failures = 2;
  const commitsWhileFailing: number[] = [];
  const { payload, log } = control(messages(['A', 'A']));
  const { d, seen } = deps({
    handle: async () => {
      if (failures-- > 0) {
        commitsWhileFailing.push(log.commits.length);
        throw new Error('transient');
      }
    },
  });
  await consumeBatch(payload, d);
  t.deepEqual(commitsWhileFailing, [0, 0]);
  t.deepEqual(log.commits, ['12']);
  t.deepEqual(seen.parked, []);
});

test('a poison event is isolated and parked; the rest is handled and the commit moves past it', async (t) => {
  const handled: string[][] = [];
  const { payload, log } = control(messages(['A', 'A', 'A']));
  const { d, seen } = deps({
    handle: async (b) => {
      if (b.some((e) => e.id === 'e1')) throw new PermanentError('cannot handle e1');
      handled.push(ids(b));
    },
  });
  await consumeBatch(payload, d);
  t.deepEqual(handled, [['e0'], ['e2']]);
  t.deepEqual(seen.parked, ['e1']);
  t.deepEqual(seen.parkedAt, ['11']);
  t.deepEqual(log.commits, ['13']);
});

test('when parking fails the batch fails uncommitted, so Kafka delivers it again', async (t) => {
  const { payload, log } = control(messages(['A', 'P', 'A']));
  const { d } = deps(
    {
      handle: async (b) => {
        if (b.some((e) => e.type === KINDS.P.type)) throw new PermanentError('poison');
      },
    },
    { park: async () => Promise.reject(new Error('dead-letter topic unavailable')) },
  );
  await t.throwsAsync(consumeBatch(payload, d), { message: /dead-letter topic unavailable/ });
  t.deepEqual(log.commits, []);
  t.deepEqual(log.resolved, []);
});

test('a consumer stopping during a retry leaves the event uncommitted and unparked', async (t) => {
  const { payload, log } = control(messages(['A']));
  const { d, seen } = deps({
    handle: async () => {
      log.running = false;
      throw new Error('transient');
    },
  });
  await consumeBatch(payload, d);
  t.deepEqual(seen.parked, []);
  t.deepEqual(log.commits, []);
});

test('an unreadable message of a wanted type is reported, parked as it is before its offset is committed, not retried forever', async (t) => {
  const batch = messages(['A', 'A']);
  batch[0] = { ...batch[0]!, value: Buffer.from('{broken') };
  const handled: string[][] = [];
  const { payload, log } = control(batch);
  const parked: { message: IncomingMessage; offset: string; commitsBefore: number }[] = [];
  const { d, seen } = deps(
    { handle: async (b) => void handled.push(ids(b)) },
    { parkUnreadable: async (message, _error, where) => void parked.push({ message, offset: where.offset, commitsBefore: log.commits.length }) },
  );
  await consumeBatch(payload, d);
  t.deepEqual(handled, [['e1']]);
  t.deepEqual(parked, [{ message: batch[0]!, offset: '10', commitsBefore: 0 }], 'exactly once, the very message, before any commit');
  t.deepEqual(log.commits, ['12']);
  t.true(seen.errors.some((e) => e instanceof PermanentError && /offset 10: its value is not JSON/.test(e.message)));
});

test('a message without a type header is parked as unreadable; an unreadable one of another type is passed over silently', async (t) => {
  const batch = messages(['A', 'B', 'A', 'B']);
  batch[1] = { ...batch[1]!, value: null };
  batch[2] = { ...batch[2]!, headers: {} };
  batch[3] = { ...batch[3]!, value: Buffer.from('{broken') };
  const { payload, log } = control(batch);
  const { d, seen } = deps({ eventTypes: new Set([KINDS.A.type]), handle: async () => {} });
  await consumeBatch(payload, d);
  t.deepEqual(seen.unreadable.map((u) => u.offset), ['12']);
  t.is(seen.errors.length, 1);
  t.deepEqual(log.commits, ['14']);
});

test('when an unreadable message cannot be dead-lettered the batch fails uncommitted, so Kafka delivers it again', async (t) => {
  const batch = messages(['A', 'A']);
  batch[1] = { ...batch[1]!, value: Buffer.from('{broken') };
  const handled: string[][] = [];
  const { payload, log } = control(batch);
  const { d } = deps({ handle: async (b) => void handled.push(ids(b)) }, { parkUnreadable: async () => Promise.reject(new Error('dead-letter topic unavailable')) });
  await t.throwsAsync(consumeBatch(payload, d), { message: /dead-letter topic unavailable/ });
  t.deepEqual(handled, [], 'the slice stops before its handler runs');
  t.deepEqual(log.commits, []);
  t.deepEqual(log.resolved, []);
});

test('a failed heartbeat during a long handler (a rebalance) ends the batch after that slice and rethrows to kafkajs', async (t) => {
  const rebalance = Object.assign(new Error('The group is rebalancing'), { type: 'REBALANCE_IN_PROGRESS' });
  const { payload, log } = control(messages(['A', 'A']), { heartbeat: async () => Promise.reject(rebalance) });
  const handled: string[][] = [];
  const slow = async (b: RecordedEvent[]) => {
    await new Promise((resolve) => setTimeout(resolve, 40));
    handled.push(ids(b));
  };
  const { d } = deps({ batchSize: 1, handle: slow });
  const error = await t.throwsAsync(consumeBatch(payload, d));
  t.is(error, rebalance);
  t.deepEqual(handled, [['e0']], 'the next slice does not start');
  t.deepEqual(log.commits, ['11'], 'the handled slice is offered for commit; the broker refuses it if the generation is over');
});
