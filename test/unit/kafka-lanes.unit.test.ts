import test from 'ava';
import { partitionOfKey, splitIntoLanes } from '../../src/adapters/kafka/lanes.ts';
import type { OutgoingMessage } from '../../src/adapters/kafka/messages.ts';

const message = (topic: string, key: string, n: number): OutgoingMessage => ({ topic, key, value: `{"n":${n}}`, headers: {} });

test('a key always goes to the same partition, below the count', (t) => {
  for (const key of ['document-doc_1', 'knowledge_base-kb_9', 'workflow_run-run_x']) {
    const partition = partitionOfKey('kbqa.document', key, 6);
    t.true(partition >= 0 && partition < 6);
    t.is(partitionOfKey('kbqa.other', key, 6), partition, 'the topic does not change the placement, as in Java');
  }
  const spread = new Set(Array.from({ length: 60 }, (_, i) => partitionOfKey('t', `document-doc_${i}`, 6)));
  t.is(spread.size, 6, '60 keys reach every one of 6 partitions');
});

test('each partition belongs to one lane, and each lane keeps the order of its messages', (t) => {
  const counts: Record<string, number> = { a: 6, b: 3 };
  const messages = Array.from({ length: 200 }, (_, n) => message(n % 3 === 0 ? 'b' : 'a', `stream-${n % 17}`, n));
  const lanes = splitIntoLanes(messages, (topic) => counts[topic]!, 2);
  t.is(lanes.length, 2);
  t.is(lanes.flat().length, messages.length);
  for (const [i, lane] of lanes.entries()) {
    for (const m of lane) t.is(m.partition % 2, i);
    const order = lane.map((m) => Number(JSON.parse(m.value).n));
    t.deepEqual(order, [...order].sort((x, y) => x - y));
  }
  // The same stream stays in one partition of its topic.
  const placement = new Map<string, number>();
  for (const m of lanes.flat()) {
    const where = `${m.topic}/${m.key}`;
    t.is(placement.get(where) ?? m.partition, m.partition);
    placement.set(where, m.partition);
  }
});
