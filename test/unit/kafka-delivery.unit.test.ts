import test from 'ava';
import kafkajs from 'kafkajs';
import { trustedEvent } from '../../schemas/events/recorded.ts';
import { afterFailure, committable, type Entry, isRetriableFailure, planSegments } from '../../src/adapters/kafka/delivery.ts';
import { createGroupProgress, groupPosition } from '../../src/adapters/kafka/group-position.ts';
import { PermanentError } from '../../src/lib/retry.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';

// kafkajs is CommonJS and spreads its error classes into its exports, which Node cannot name for an ESM import.
const { KafkaJSConnectionError, KafkaJSError, KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded } = kafkajs;

const backoff = { attempts: 3, baseMs: 10, maxMs: 100 };

test('errors are retriable unless they say otherwise, ours and kafkajs alike', (t) => {
  t.true(isRetriableFailure(new Error('database is locked')));
  t.true(isRetriableFailure(new KafkaJSConnectionError('connection refused')));
  t.true(isRetriableFailure(new KafkaJSError('leader not available')));
  t.false(isRetriableFailure(new PermanentError('bad data')));
  t.false(isRetriableFailure(new KafkaJSNonRetriableError('message too large')));
});

test('kafkajs giving up on a retriable cause is still an outage; on a permanent one it is not', (t) => {
  t.true(isRetriableFailure(new KafkaJSNumberOfRetriesExceeded(new KafkaJSConnectionError('broker down'), { retryCount: 5, retryTime: 3000 })));
  t.false(isRetriableFailure(new KafkaJSNumberOfRetriesExceeded(new PermanentError('bad'), { retryCount: 5, retryTime: 3000 })));
});

test('a retriable failure backs off and retries until the attempts are spent, then isolates or parks', (t) => {
  const transient = new Error('timeout');
  t.deepEqual(afterFailure(transient, 1, 5, backoff, () => 1), { action: 'retry', delayMs: 10 });
  t.deepEqual(afterFailure(transient, 2, 5, backoff, () => 1), { action: 'retry', delayMs: 20 });
  t.deepEqual(afterFailure(transient, 3, 5, backoff, () => 1), { action: 'isolate' });
  t.deepEqual(afterFailure(transient, 3, 1, backoff, () => 1), { action: 'park' });
});

test('a permanent failure is never retried: a batch is split at once, a single event parked at once', (t) => {
  const bad = new PermanentError('cannot handle');
  t.deepEqual(afterFailure(bad, 1, 3, backoff), { action: 'isolate' });
  t.deepEqual(afterFailure(bad, 1, 1, backoff), { action: 'park' });
});

const ev = (position: number): RecordedEvent =>
  trustedEvent({ id: `e${position}`, type: 'T', streamId: 's-1', revision: position, position: BigInt(position), data: {}, metadata: { schemaVersion: 1 }, recordedAt: '' });
/** `E` is an event the group handles, `s` one it passes over (position known), `?` one passed over unread. */
const entries = (pattern: string, firstOffset = 100): Entry[] =>
  [...pattern].map((c, i) => ({
    offset: String(firstOffset + i),
    event: c === 'E' ? ev(i + 1) : null,
    position: c === '?' ? null : BigInt(i + 1),
  }));

test('a fetched batch is cut into handler batches; passed-over messages ride with the slice before them', (t) => {
  const plan = planSegments(entries('sEEsEE?E?'), 2);
  t.deepEqual(
    plan.map((s) => [s.from, s.to, s.events.map((e) => Number(e.position))]),
    [
      [0, 3, [2, 3]],
      [4, 6, [5, 6]],
      [7, 8, [8]],
    ],
  );
  t.deepEqual(planSegments(entries('ss?'), 2).map((s) => [s.from, s.to, s.events.length]), [[0, 2, 0]]);
  t.deepEqual(planSegments([], 2), []);
});

test('the commit passes exactly the done prefix: handled, parked or passed over, never beyond a pending one', (t) => {
  const batch = entries('EEsEE');
  t.is(committable(batch, [false, true, true, true, true]), null, 'the first event is still pending');
  t.deepEqual(committable(batch, [true, true, true, false, true]), { last: 2, commitOffset: '103', position: 3n });
  // The event at offset 101 was parked: it is done, so the commit moves past it to the end of the batch.
  t.deepEqual(committable(batch, [true, true, true, true, true]), { last: 4, commitOffset: '105', position: 5n });
  t.deepEqual(committable(entries('??'), [true, true]), { last: 1, commitOffset: '102', position: null });
});

test('the group position is the highest handled, held back by partitions with work pending, never moving back', (t) => {
  t.is(groupPosition([], 7n), 7n);
  t.is(groupPosition([{ handled: 10n, caughtUp: true }, { handled: 4n, caughtUp: true }], 0n), 10n, 'caught-up partitions do not hold back');
  t.is(groupPosition([{ handled: 10n, caughtUp: true }, { handled: 4n, caughtUp: false }], 0n), 4n, 'a partition with pending work does');
  t.is(groupPosition([{ handled: 10n, caughtUp: true }, { handled: 4n, caughtUp: false }], 6n), 6n);
});

test('group progress follows fetches, commits and rebalances', (t) => {
  const progress = createGroupProgress(0n);
  progress.begin('a', 0);
  t.is(progress.advance('a', 0, 5n, true), 5n);
  progress.begin('b', 0);
  t.is(progress.advance('a', 0, 9n, true), 5n, 'partition b has fetched work, nothing of it handled yet');
  t.is(progress.advance('b', 0, 3n, false), 5n, 'b has handled up to 3 only, but the position never moves back');
  t.is(progress.advance('b', 0, 8n, true), 9n);
  progress.begin('b', 0);
  t.is(progress.advance('a', 0, 12n, true), 9n);
  t.is(progress.retain({ a: [0] }), 12n, 'b moved to another member, which accounts for it now');
  t.is(progress.advance('a', 0, null, true), 12n, 'entries without a position keep what was handled');
});
