import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { CONSUMER_SESSION } from '../../src/adapters/kafka/bus.ts';
import { partitionOfKey } from '../helpers/kafka-read.ts';
import { killGroup, run, waitForOutput } from '../helpers/process.ts';
import { withService } from '../helpers/services.ts';
import { eventually } from '../helpers/temp.ts';
import { kbDeleted, openRelayRig } from '../helpers/relay-rig.ts';

const PARTITIONS = 4;
const GOAL_MS = 15_000;

/**
 * Two members of one consumer group: this process and a child (test/helpers/kafka-member.ts).
 * The child is killed with SIGKILL, so it never leaves the group: its partitions move when the
 * broker's session for it expires (CONSUMER_SESSION). Its own topic, so no other test is disturbed.
 */
withService(test, 'consumer-group rebalance after kill -9', ['KAFKA_BROKERS'], (env) => {
  test(`a killed member's partitions are picked up by the other within ${GOAL_MS / 1000} s, and nothing is lost`, async (t) => {
    t.timeout(60_000);
    const topic = `kbqa-test-rebalance-${randomUUID().slice(0, 8)}`;
    const group = `rebalance-${randomUUID().slice(0, 8)}`;
    const kafka = new Kafka({ clientId: 'kbqa-test-rebalance', brokers: [env.KAFKA_BROKERS!], logLevel: logLevel.NOTHING });
    const { log, bus, close } = await openRelayRig(kafka, [env.KAFKA_BROKERS!], topic, { partitions: PARTITIONS, consumer: { maxWaitTimeInMs: 100 } });
    const mine = new Set<string>();
    const member = run(process.execPath, ['--import', 'tsx', 'test/helpers/kafka-member.ts'], { KAFKA_BROKERS: env.KAFKA_BROKERS!, TOPIC: topic, GROUP: group });
    // One stream per partition, so every partition gets an event in each round.
    const streams = Array.from({ length: PARTITIONS }, (_, p) => {
      for (let i = 0; ; i++) if (partitionOfKey(topic, `knowledge_base-${group}-${i}`, PARTITIONS) === p) return `knowledge_base-${group}-${i}`;
    });
    const round = async () => {
      const ids: string[] = [];
      for (const stream of streams) {
        const event = kbDeleted(stream);
        ids.push(event.id);
        await log.store.append(stream, [event], 'any');
      }
      return ids;
    };
    try {
      await waitForOutput(member, /subscribed/);
      await bus.subscribe({ name: group, handle: async (batch) => void batch.forEach((e) => mine.add(e.id)) });
      // Both members own partitions once each has handled events of a round.
      const handledByChild = (id: string) => member.output().includes(`handled ${id}`);
      await eventually(
        async () => {
          const ids = await round();
          await new Promise((r) => setTimeout(r, 500));
          return ids.some((id) => mine.has(id)) && ids.some(handledByChild) && ids.every((id) => mine.has(id) || handledByChild(id));
        },
        { timeoutMs: 30_000, everyMs: 0 },
      );

      const killed = Date.now();
      killGroup(member, 'SIGKILL');
      await member.exited;
      const after = await round();
      await eventually(() => after.every((id) => mine.has(id)), { timeoutMs: 45_000, everyMs: 50 });
      const movedMs = Date.now() - killed;
      t.log(`partitions of the killed member handled by the other ${movedMs} ms after SIGKILL (session timeout ${CONSUMER_SESSION.sessionTimeout} ms)`);
      t.true(movedMs <= GOAL_MS, `${movedMs} ms`);
    } finally {
      if (member.child.exitCode === null && member.child.signalCode === null) killGroup(member, 'SIGKILL');
      await close();
    }
  });
});
