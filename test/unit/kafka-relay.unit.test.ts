import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { OutgoingMessage, Publisher } from '../../src/adapters/kafka/messages.ts';
import { createRelay, RELAY_CHECKPOINT } from '../../src/adapters/kafka/relay.ts';
import type { CheckpointStore } from '../../src/ports/event-bus.ts';
import type { EventStore, NewEvent } from '../../src/ports/event-store.ts';
import { eventually } from '../helpers/temp.ts';
import { sqliteLog } from '../helpers/sqlite-log.ts';

const ev = (type = 'DocumentUploaded'): NewEvent => ({ id: randomUUID(), type, data: {}, metadata: { schemaVersion: 1 } });
const backoff = { baseMs: 1, maxMs: 5 };
const positionOf = (m: OutgoingMessage) => BigInt(JSON.parse(m.value).position as string);

/** An embedded event store and checkpoint store in a temp dir, as the embedded profile has them. */
async function withStore(body: (store: EventStore, checkpoints: CheckpointStore) => Promise<void>) {
  const log = sqliteLog(10);
  try {
    await body(log.store, log.checkpoints);
  } finally {
    await log.close();
  }
}

/**
 * A broker that acknowledges only when the test says so, and records, for every publish, the
 * relay's checkpoint at the moment the acknowledgement arrives.
 */
function lateBroker(checkpoints: CheckpointStore) {
  const acked: { positions: bigint[]; checkpointAtAck: bigint }[] = [];
  const pending: (() => Promise<void>)[] = [];
  const publisher: Publisher = {
    publish: (messages) =>
      new Promise<void>((resolve) =>
        pending.push(async () => {
          acked.push({ positions: messages.map(positionOf), checkpointAtAck: await checkpoints.load(RELAY_CHECKPOINT) });
          resolve();
        }),
      ),
  };
  const ackNext = async () => {
    await eventually(() => pending.length > 0);
    await pending.shift()!();
  };
  return { publisher, acked, ackNext, inFlight: () => pending.length };
}

test('the checkpoint never passes an event the broker has not acknowledged', async (t) => {
  await withStore(async (store, checkpoints) => {
    const broker = lateBroker(checkpoints);
    const relay = await createRelay({ store, publisher: broker.publisher, checkpoints, batchSize: 2, backoff });
    try {
      await store.append('document-d1', [ev(), ev(), ev()], 'no_stream');
      await store.append('knowledge_base-k1', [ev('KnowledgeBaseCreated')], 'no_stream');
      await eventually(() => broker.inFlight() === 1);
      t.is(await checkpoints.load(RELAY_CHECKPOINT), 0n, 'a publish is in flight, nothing acknowledged yet');
      t.is(relay.position(), 0n);
      await broker.ackNext();
      await relay.waitFor(2n, 2000);
      t.is(await checkpoints.load(RELAY_CHECKPOINT), 2n);
      await broker.ackNext();
      await relay.waitFor(4n, 2000);
      t.deepEqual(broker.acked.map((a) => a.positions), [[1n, 2n], [3n, 4n]]);
      for (const { positions, checkpointAtAck } of broker.acked) t.true(checkpointAtAck < positions[0]!, `checkpoint ${checkpointAtAck} before the ack of ${positions}`);
      t.is(await checkpoints.load(RELAY_CHECKPOINT), 4n);
    } finally {
      await relay.stop().catch(() => {});
    }
  });
});

test('each event goes to its category topic keyed by its stream, in log order', async (t) => {
  await withStore(async (store, checkpoints) => {
    const sent: OutgoingMessage[] = [];
    const relay = await createRelay({ store, publisher: { publish: async (m) => void sent.push(...m) }, checkpoints, backoff });
    try {
      await store.append('document-d1', [ev()], 'no_stream');
      await store.append('workflow_run-r1', [ev('WorkflowRunRequested')], 'no_stream');
      await relay.waitFor(await store.headPosition(), 2000);
      t.deepEqual(sent.map((m) => [m.topic, m.key, positionOf(m)]), [
        ['kbqa.document', 'document-d1', 1n],
        ['kbqa.workflow-run', 'workflow_run-r1', 2n],
      ]);
    } finally {
      await relay.stop();
    }
  });
});

test('a failed publish is retried, reported, and nothing is skipped or checkpointed early', async (t) => {
  await withStore(async (store, checkpoints) => {
    let failures = 3;
    const published: bigint[] = [];
    const errors: unknown[] = [];
    const checkpointsSeenOnFailure: bigint[] = [];
    const publisher: Publisher = {
      async publish(messages) {
        if (failures-- > 0) {
          checkpointsSeenOnFailure.push(await checkpoints.load(RELAY_CHECKPOINT));
          throw new Error('broker unavailable');
        }
        published.push(...messages.map(positionOf));
      },
    };
    const relay = await createRelay({ store, publisher, checkpoints, batchSize: 2, backoff, onError: (e) => errors.push(e) });
    try {
      await store.append('document-d1', [ev(), ev(), ev()], 'no_stream');
      await relay.waitFor(3n, 3000);
      t.deepEqual(published, [1n, 2n, 3n]);
      t.deepEqual(checkpointsSeenOnFailure, [0n, 0n, 0n]);
      t.is(errors.length, 3);
    } finally {
      await relay.stop();
    }
  });
});

test('a restarted relay resumes after its checkpoint', async (t) => {
  await withStore(async (store, checkpoints) => {
    const published: bigint[] = [];
    const publisher: Publisher = { publish: async (messages) => void published.push(...messages.map(positionOf)) };
    let relay = await createRelay({ store, publisher, checkpoints, backoff });
    await store.append('document-d1', [ev(), ev()], 'no_stream');
    await relay.waitFor(2n, 2000);
    await relay.stop();
    await store.append('document-d1', [ev()], 1);
    relay = await createRelay({ store, publisher, checkpoints, backoff });
    await relay.waitFor(3n, 2000);
    await relay.stop();
    t.deepEqual(published, [1n, 2n, 3n]);
  });
});

test('stopping while a publish keeps failing ends the retries and checkpoints nothing', async (t) => {
  await withStore(async (store, checkpoints) => {
    let attempts = 0;
    const publisher: Publisher = {
      publish: async () => {
        attempts++;
        throw new Error('broker unavailable');
      },
    };
    const relay = await createRelay({ store, publisher, checkpoints, backoff });
    await store.append('document-d1', [ev()], 'no_stream');
    await eventually(() => attempts >= 2);
    const waiting = relay.waitFor(1n, 5000);
    await relay.stop();
    await t.throwsAsync(waiting, { message: /relay stopped/ });
    t.is(await checkpoints.load(RELAY_CHECKPOINT), 0n);
    t.is(relay.position(), 0n);
  });
});

test('a subscription the store ends (a lost connection) is followed again from the checkpoint', async (t) => {
  await withStore(async (real, checkpoints) => {
    let subscriptions = 0;
    const store: EventStore = {
      ...real,
      subscribeToAll(from, onEvents, options) {
        if (++subscriptions === 1) {
          setTimeout(() => options?.onError?.(new Error('connection lost')), 5);
          return { stop: async () => {} };
        }
        return real.subscribeToAll(from, onEvents, options);
      },
    };
    const published: bigint[] = [];
    const errors: unknown[] = [];
    const relay = await createRelay({ store, publisher: { publish: async (m) => void published.push(...m.map(positionOf)) }, checkpoints, backoff, onError: (e) => errors.push(e) });
    try {
      await real.append('document-d1', [ev(), ev()], 'no_stream');
      await relay.waitFor(2n, 2000);
      t.deepEqual(published, [1n, 2n]);
      t.is(subscriptions, 2);
      t.regex(String(errors[0]), /connection lost/);
    } finally {
      await relay.stop();
    }
  });
});
