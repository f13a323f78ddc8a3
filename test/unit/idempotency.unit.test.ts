import test from 'ava';
import { CLAIM_LAPSES_AFTER_MS, idempotencyDecider, type IdempotencyEvent } from '../../src/domain/document/idempotency.ts';
import { fold } from '../../src/domain/shared/decider.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(idempotencyDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const key = { workspace_id: 'ws_a', key: 'retry-me' };

const claim = (fingerprint: string, now = T0) => ({ type: 'ClaimKey' as const, data: { ...key, fingerprint }, metadata: at(now) });
const complete = { type: 'CompleteKey' as const, data: { ...key, status: 202, resource_ids: ['doc_1'] }, metadata: at(later(1000)) };
const claimed = (fingerprint: string, claimed_at = T0): IdempotencyEvent => ({ type: 'IdempotencyKeyClaimed', data: { ...key, fingerprint, claimed_at } });
const completed: IdempotencyEvent = { type: 'IdempotentRequestCompleted', data: { ...key, status: 202, resource_ids: ['doc_1'] } };

test('the first request with a key claims it', (t) => {
  spec(t).given().when(claim('body-1')).then([claimed('body-1')]);
});

test('completing a claimed key records the result', (t) => {
  spec(t).given(claimed('body-1')).when(complete).then([completed]);
});

test('a retry with the same body after completion claims nothing and finds the first result', (t) => {
  spec(t).given(claimed('body-1'), completed).when(claim('body-1', later(60_000))).then([]);
  t.deepEqual(fold(idempotencyDecider.evolve, idempotencyDecider.initialState(), [claimed('body-1'), completed]), {
    status: 'completed',
    fingerprint: 'body-1',
    resourceIds: ['doc_1'],
  });
});

test('the same key with another body is refused, naming the header, whether the first finished or not', (t) => {
  spec(t).given(claimed('body-1')).when(claim('body-2')).thenThrows('invalid', 'idempotency_key_reused', 'Idempotency-Key');
  spec(t).given(claimed('body-1'), completed).when(claim('body-2')).thenThrows('invalid', 'idempotency_key_reused', 'Idempotency-Key');
  spec(t)
    .given(claimed('body-1'))
    .when(claim('body-2', later(CLAIM_LAPSES_AFTER_MS + 1)))
    .thenThrows('invalid', 'idempotency_key_reused', 'Idempotency-Key');
});

test('a retry racing the first is told it is in progress, up to the moment the claim lapses', (t) => {
  spec(t).given(claimed('body-1')).when(claim('body-1', later(1000))).thenThrows('conflict', 'idempotency_key_in_progress');
  spec(t).given(claimed('body-1')).when(claim('body-1', later(CLAIM_LAPSES_AFTER_MS))).thenThrows('conflict', 'idempotency_key_in_progress');
});

test('a claim whose request died lapses after five minutes, and the retry claims the key anew', (t) => {
  const now = later(CLAIM_LAPSES_AFTER_MS + 1);
  spec(t).given(claimed('body-1')).when(claim('body-1', now)).then([claimed('body-1', now)]);
  t.is(CLAIM_LAPSES_AFTER_MS, 5 * 60_000);
});

test('completing a key that is free or already completed records nothing', (t) => {
  spec(t).given().when(complete).then([]);
  spec(t).given(claimed('body-1'), completed).when(complete).then([]);
});
