import type { ExecutionContext, TestFn } from 'ava';
import { randomUUID } from 'node:crypto';
import type { CheckpointStore, EventBus } from '../../../src/ports/event-bus.ts';
import type { AnyDomainEvent } from '../../../schemas/events/index.ts';
import type { EventStore, NewEvent, RecordedEvent } from '../../../src/ports/event-store.ts';
import { PermanentError } from '../../../src/lib/retry.ts';
import { eventually } from '../../helpers/temp.ts';

export type EventBusFixture = { store: EventStore; bus: EventBus; checkpoints: CheckpointStore; cleanup(): Promise<void> };

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * The kinds of event the cases use, each a type of the catalog (a bus may read nothing else: the
 * Kafka bus parses every message by its type's schema).
 */
const KINDS = {
  A: { type: 'WorkspaceCreated', data: { workspace_id: 'w', name: 'a', created_at: T0 } },
  F: { type: 'KnowledgeBaseDeleted', data: { knowledge_base_id: 'kb', deleted_at: T0 } },
  P: { type: 'ApiKeyRevoked', data: { key_id: 'k', revoked_at: T0 } },
  Wanted: { type: 'WorkflowDeleted', data: { workflow_id: 'wf', deleted_at: T0 } },
  Other: { type: 'WorkflowRunStarted', data: { run_id: 'r', started_at: T0 } },
  I: { type: 'DocumentContentClaimed', data: { knowledge_base_id: 'kb', sha256: 'a'.repeat(64), document_id: 'd' } },
} as const satisfies Record<string, AnyDomainEvent>;
type Kind = keyof typeof KINDS;
const typeOf = (kind: Kind) => KINDS[kind].type;

/** The number each case gives an event, by event id (which every bus delivers as it was appended). */
const numbers = new Map<string, number>();
const ev = (kind: Kind, n = 0): NewEvent => {
  const id = randomUUID();
  numbers.set(id, n);
  return { id, ...KINDS[kind], metadata: { schemaVersion: 1 } };
};
const nOf = (event: RecordedEvent) => numbers.get(event.id) ?? 0;

/** At-least-once delivery to named groups with checkpoints that move only after success. */
export function testEventBus(test: TestFn, name: string, factory: () => Promise<EventBusFixture>) {
  const withBus = (title: string, body: (t: ExecutionContext, f: EventBusFixture, unique: string) => Promise<void>) =>
    test(`${name} › ${title}`, async (t) => {
      const fixture = await factory();
      try {
        await body(t, fixture, randomUUID().slice(0, 8));
      } finally {
        await fixture.bus.close();
        await fixture.cleanup();
      }
    });

  withBus('a group receives every event in log order and checkpoints after it', async (t, { store, bus, checkpoints }, u) => {
    await store.append(`s1-${u}`, [ev('A', 1), ev('A', 2)], 'no_stream');
    await store.append(`s2-${u}`, [ev('A', 3)], 'no_stream');
    const seen: number[] = [];
    const group = await bus.subscribe({ name: `g-${u}`, handle: async (batch) => void seen.push(...batch.map((e) => nOf(e))) });
    const head = await store.headPosition();
    await group.waitFor(head, 5000);
    t.deepEqual(seen.filter((n) => n > 0), [1, 2, 3]);
    t.is(await checkpoints.load(`g-${u}`), head);
    t.is(group.position(), head);
  });

  withBus('a restarted group resumes after its checkpoint', async (t, { store, bus }, u) => {
    const seen: number[] = [];
    const handle = async (batch: RecordedEvent[]) => void seen.push(...batch.map((e) => nOf(e)));
    let group = await bus.subscribe({ name: `r-${u}`, handle });
    await store.append(`s-${u}`, [ev('A', 1)], 'no_stream');
    await group.waitFor(await store.headPosition(), 5000);
    await group.stop();
    await store.append(`s-${u}`, [ev('A', 2)], 0);
    group = await bus.subscribe({ name: `r-${u}`, handle });
    await group.waitFor(await store.headPosition(), 5000);
    t.deepEqual(seen, [1, 2]);
  });

  withBus('a failing handler is retried and the checkpoint waits for its success', async (t, { store, bus, checkpoints }, u) => {
    let failures = 2;
    const seen: number[] = [];
    let checkpointWhileFailing = -1n;
    const group = await bus.subscribe({
      name: `f-${u}`,
      eventTypes: new Set([typeOf('F')]),
      handle: async (batch) => {
        if (failures-- > 0) {
          checkpointWhileFailing = await checkpoints.load(`f-${u}`);
          throw new Error('transient');
        }
        seen.push(...batch.map((e) => nOf(e)));
      },
    });
    const before = group.position();
    await store.append(`s-${u}`, [ev('F', 7)], 'no_stream');
    await group.waitFor(await store.headPosition(), 5000);
    t.deepEqual(seen, [7]);
    t.is(checkpointWhileFailing, before);
  });

  withBus('a poison event is parked, reported, and the rest still flows', async (t, { store, bus, checkpoints }, u) => {
    const seen: number[] = [];
    const parked: number[] = [];
    const group = await bus.subscribe({
      name: `p-${u}`,
      eventTypes: new Set([typeOf('P')]),
      handle: async (batch) => {
        if (batch.some((e) => nOf(e) === 2)) throw new PermanentError('cannot handle 2');
        seen.push(...batch.map((e) => nOf(e)));
      },
      onParked: async (event) => void parked.push(nOf(event)),
    });
    await store.append(`s-${u}`, [ev('P', 1), ev('P', 2), ev('P', 3)], 'no_stream');
    await group.waitFor(await store.headPosition(), 5000);
    t.deepEqual(seen, [1, 3]);
    t.deepEqual(parked, [2]);
    const dead = await checkpoints.parked(`p-${u}`);
    t.is(dead.length, 1);
    t.is(nOf(dead[0]!.event), 2);
    t.regex(dead[0]!.error, /cannot handle 2/);
  });

  withBus('a group sees only the event types it asked for', async (t, { store, bus }, u) => {
    const types: string[] = [];
    const group = await bus.subscribe({ name: `t-${u}`, eventTypes: new Set([typeOf('Wanted')]), handle: async (b) => void types.push(...b.map((e) => e.type)) });
    await store.append(`s-${u}`, [ev('Wanted'), ev('Other'), ev('Wanted')], 'no_stream');
    await group.waitFor(await store.headPosition(), 5000);
    t.deepEqual(types, [typeOf('Wanted'), typeOf('Wanted')]);
  });

  withBus('groups are independent: a slow one does not hold back another', async (t, { store, bus }, u) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fast: string[] = [];
    const slow = await bus.subscribe({ name: `slow-${u}`, eventTypes: new Set([typeOf('I')]), handle: () => gate });
    const quick = await bus.subscribe({ name: `fast-${u}`, eventTypes: new Set([typeOf('I')]), handle: async (b) => void fast.push(...b.map((e) => e.id)) });
    await store.append(`s-${u}`, [ev('I')], 'no_stream');
    const head = await store.headPosition();
    await quick.waitFor(head, 5000);
    t.is(fast.length, 1);
    t.true(slow.position() < head);
    release();
    await slow.waitFor(head, 5000);
  });

  withBus('waitFor rejects when the position is not reached in time', async (t, { store, bus }, u) => {
    const group = await bus.subscribe({ name: `w-${u}`, handle: async () => {} });
    await t.throwsAsync(group.waitFor((await store.headPosition()) + 1000n, 30), { message: /did not reach/ });
    await eventually(() => true);
  });
}
