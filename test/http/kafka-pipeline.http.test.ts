import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Kafka, type LogEntry, logLevel } from 'kafkajs';
import { groupIdOf } from '../../src/adapters/kafka/bus.ts';
import type { ConsumerGroup } from '../../src/ports/event-bus.ts';
import type { EventStore, RecordedEvent } from '../../src/ports/event-store.ts';
import { freshNamespace } from '../helpers/kafka-read.ts';
import { kbDeleted, openRelayRig } from '../helpers/relay-rig.ts';
import { startServer } from '../helpers/server.ts';
import { withService } from '../helpers/services.ts';
import { eventually } from '../helpers/temp.ts';

/** What the runner stops with: the runs in hand not started are given up, and reject. */
class Stopped extends Error {}

/**
 * A group shaped as the runner's (`inFlight`, slices of one event) whose handler holds the events
 * the test names until it lets them go, and which gives them up (rejecting) when it is stopped.
 */
function heldGroup(name: string, inFlight: number) {
  const started: string[] = [];
  const finished: string[] = [];
  const gates = new Map<string, { release(): void; stop(): void }>();
  const slow = new Set<string>();
  const group: ConsumerGroup = {
    name,
    batchSize: 1,
    inFlight,
    async handle(batch: RecordedEvent[]) {
      for (const event of batch) {
        const id = (event.data as { knowledge_base_id: string }).knowledge_base_id;
        started.push(id);
        if (slow.has(id)) await new Promise<void>((resolve, reject) => gates.set(id, { release: resolve, stop: () => reject(new Stopped('stopping')) }));
        finished.push(id);
      }
    },
    onStop: () => gates.forEach((gate) => gate.stop()),
  };
  return { group, started, finished, slow, release: (id: string) => gates.get(id)!.release() };
}

/**
 * The runner's pipelined fetching against the real broker (src/adapters/kafka/pipeline.ts): one
 * partition, so every event lands behind the one before it, as runs keyed alike do.
 */
withService(test, 'Kafka pipelined fetching (real broker)', ['KAFKA_BROKERS'], (env) => {
  const brokers = env.KAFKA_BROKERS!.split(',').map((b) => b.trim());
  const rig = (label: string, kafka?: Kafka) => {
    const name = `kbqa-test-pipeline-${label}-${randomUUID().slice(0, 8)}`;
    const client = kafka ?? new Kafka({ clientId: `kbqa-test-${label}`, brokers, logLevel: logLevel.NOTHING });
    return openRelayRig(client, brokers, name, { partitions: 1, consumer: { maxWaitTimeInMs: 100, heartbeatInterval: 500 } }).then((r) => ({ ...r, name }));
  };
  const append = (store: EventStore, id: string) => store.append(`knowledge_base-${randomUUID()}`, [kbDeleted(id)], 'no_stream');

  test('a slow event does not hold back one requested after it on its partition; the commit does not pass it; a restart delivers it again', async (t) => {
    t.timeout(60_000);
    const { log, admin, bus, close, name } = await rig('slow');
    const held = heldGroup(`pipeline-${randomUUID().slice(0, 8)}`, 10);
    held.slow.add('slow');
    const committed = async () => (await admin.fetchOffsets({ groupId: groupIdOf(held.group.name), topics: [name] }))[0]!.partitions[0]!.offset;
    try {
      let handle = await bus.subscribe(held.group);
      await append(log.store, 'before');
      await eventually(async () => (await committed()) === '1', { timeoutMs: 20_000, everyMs: 50 });
      await append(log.store, 'slow');
      await eventually(() => held.started.includes('slow'), { timeoutMs: 20_000 });
      // Requested once the slow one is in hand: another fetch of the same partition brings them.
      await append(log.store, 'fast-1');
      await append(log.store, 'fast-2');
      await eventually(() => held.finished.includes('fast-2'), { timeoutMs: 20_000 });
      t.deepEqual(held.finished, ['before', 'fast-1', 'fast-2'], 'both finished while the slow one is still in hand');
      t.is(await committed(), '1', 'the commit stays before the unfinished one');

      // Stopped with the slow one unfinished: the next start delivers it again, and what follows it.
      await handle.stop();
      t.is(await committed(), '1');
      held.started.length = 0;
      held.slow.clear();
      handle = await bus.subscribe(held.group);
      await handle.waitFor(await log.store.headPosition(), 20_000);
      t.deepEqual(held.started, ['slow', 'fast-1', 'fast-2'], 'delivered again from the unfinished one on, not before it');
      await eventually(async () => (await committed()) === '4', { timeoutMs: 10_000, everyMs: 50 });
      await handle.stop();
    } finally {
      await close();
    }
  });

  test('at the held bound the partition is paused, and resumed once a place frees', async (t) => {
    t.timeout(60_000);
    const pauses: string[] = [];
    const logCreator = () => (entry: LogEntry) => {
      const { message, topicPartitions } = entry.log as { message: string; topicPartitions?: { topic: string }[] };
      if (message.startsWith('Pausing fetching')) pauses.push(...(topicPartitions ?? []).map((tp) => tp.topic));
    };
    const kafka = new Kafka({ clientId: 'kbqa-test-bound', brokers, logLevel: logLevel.INFO, logCreator });
    const { log, bus, close, name } = await rig('bound', kafka);
    const held = heldGroup(`bound-${randomUUID().slice(0, 8)}`, 2);
    for (const id of ['a', 'b', 'c', 'd', 'e']) held.slow.add(id);
    try {
      const handle = await bus.subscribe(held.group);
      for (const id of ['a', 'b', 'c', 'd', 'e']) await append(log.store, id);
      await eventually(() => pauses.includes(name), { timeoutMs: 20_000 });
      t.deepEqual(held.started, ['a', 'b'], 'two in hand, the bound: no more taken');
      held.release('a');
      await eventually(() => held.started.includes('c'), { timeoutMs: 20_000 });
      t.deepEqual(held.started, ['a', 'b', 'c']);
      for (const id of ['b', 'c']) held.release(id);
      await eventually(() => held.started.length === 5, { timeoutMs: 20_000 });
      for (const id of ['d', 'e']) held.release(id);
      await handle.waitFor(await log.store.headPosition(), 20_000);
      t.deepEqual(held.finished, ['a', 'b', 'c', 'd', 'e']);
      await handle.stop();
    } finally {
      await close();
    }
  });

  test('the runner: a run requested behind one whose http node waits on a slow server ends while that one waits', async (t) => {
    t.timeout(120_000);
    const waiting: ServerResponse[] = [];
    const upstream = createServer((_req, res) => void waiting.push(res));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/slow`;
    // One partition: every run's request lands behind the one before it.
    const server = await startServer({ KAFKA_BROKERS: brokers.join(','), KAFKA_NAMESPACE: freshNamespace('pipeline'), KAFKA_TOPIC_PARTITIONS: '1', KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1' });
    try {
      const workflow = async (nodes: { id: string; type: string; config: Record<string, unknown>; timeout_ms?: number }[]) => {
        const graph = { nodes, edges: nodes.slice(1).map((node, i) => ({ from: nodes[i]!.id, to: node.id })) };
        const created = await server.call('POST', '/v1/workflows', { json: { name: 'pipeline', graph } });
        if (created.status !== 201) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
        return created.body.id as string;
      };
      const start = { id: 'start', type: 'start', config: { inputs: [] } };
      const reply = { id: 'answer', type: 'direct_reply', config: { template: 'done' } };
      const slow = await workflow([start, { id: 'wait', type: 'http_request', config: { method: 'GET', url, timeout_ms: 90_000 }, timeout_ms: 120_000 }, reply]);
      const fast = await workflow([start, reply]);
      const request = async (id: string) => (await server.call('POST', `/v1/workflows/${id}/run`, { json: { inputs: {}, response_mode: 'async' } })).body.id as string;
      const status = async (runId: string) => (await server.call('GET', `/v1/workflow-runs/${runId}`)).body.status as string;

      const slowRun = await request(slow);
      await eventually(() => waiting.length === 1, { timeoutMs: 45_000, everyMs: 50 });
      const fastRun = await request(fast);
      await eventually(async () => (await status(fastRun)) === 'succeeded', { timeoutMs: 20_000, everyMs: 100 });
      t.is(await status(slowRun), 'running', `the slow run still waits on its server: ${JSON.stringify((await server.call('GET', `/v1/workflow-runs/${slowRun}`)).body.error)}`);
      waiting[0]!.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      await eventually(async () => (await status(slowRun)) === 'succeeded', { timeoutMs: 20_000, everyMs: 100 });
    } finally {
      await server.close();
      upstream.closeAllConnections();
      upstream.close();
    }
  });
});
