import test from 'ava';
import { createAuthFailureLimiter } from '../../src/http/auth-failures.ts';
import { ApiError } from '../../src/ports/api-error.ts';

const ADMIN = 'kbqa-admin-weak-secret-1';
const refusal = (fn: () => void) => {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof ApiError ? { status: error.status, code: error.code, retryAfter: Number(error.headers['retry-after']) } : error;
  }
};

test('failed keys: an address is locked out after its budget of wrong keys, for as long as the bucket takes to refill one', (t) => {
  let now = 0;
  const limiter = createAuthFailureLimiter(3, { now: () => now });
  for (let i = 0; i < 3; i++) {
    t.is(refusal(() => limiter.check('203.0.113.9', `guess-${i}-aaaaaaaaaaaa`)), null);
    limiter.failed('203.0.113.9', `guess-${i}-aaaaaaaaaaaa`);
  }
  t.deepEqual(refusal(() => limiter.check('203.0.113.9', 'guess-9-aaaaaaaaaaaa')), { status: 429, code: 'too_many_failed_authentications', retryAfter: 20 });
  t.deepEqual(refusal(() => limiter.check('203.0.113.9', ADMIN)), { status: 429, code: 'too_many_failed_authentications', retryAfter: 20 }, 'refused before it is looked at: right or wrong');
  t.is(refusal(() => limiter.check('198.51.100.7', 'guess-x-bbbbbbbbbbbb')), null, 'another address has its own budget');
  now += 20_000;
  t.is(refusal(() => limiter.check('203.0.113.9', ADMIN)), null, 'one failure refilled');
});

test('failed keys: wrong keys with one prefix, from many addresses, lock that prefix out; a key that worked from an address stays exempt there', (t) => {
  let now = 0;
  const limiter = createAuthFailureLimiter(3, { now: () => now });
  limiter.succeeded('10.0.0.1', ADMIN);
  for (let i = 0; i < 3; i++) limiter.failed(`203.0.113.${i}`, `${ADMIN.slice(0, 12)}guess${i}`);
  t.like(refusal(() => limiter.check('203.0.113.50', `${ADMIN.slice(0, 12)}guess50`)), { status: 429 }, 'a fresh address, the same prefix');
  t.like(refusal(() => limiter.check('10.0.0.2', ADMIN)), { status: 429 }, 'the right key from an address it never worked from');
  t.is(refusal(() => limiter.check('10.0.0.1', ADMIN)), null, 'the client that was working keeps working');
  t.is(refusal(() => limiter.check('203.0.113.50', 'kbqa-other-prefix-key')), null);
  now += 20_000;
  t.is(refusal(() => limiter.check('10.0.0.2', ADMIN)), null);
});

test('failed keys: memory is bounded; a forgotten address is a fresh one', (t) => {
  const limiter = createAuthFailureLimiter(1, { now: () => 0 });
  limiter.failed('203.0.113.9', 'guess-aaaaaaaaaaaa');
  t.like(refusal(() => limiter.check('203.0.113.9', 'guess-bbbbbbbbbbbb')), { status: 429 });
  // Far more addresses and prefixes than are kept: the oldest go.
  for (let i = 0; i < 30_000; i++) limiter.failed(`a${i}`, `p${i}-xxxxxxxxxxxx`);
  t.is(refusal(() => limiter.check('203.0.113.9', 'guess-bbbbbbbbbbbb')), null);
});

test('failed keys: 0 per minute is no limit', (t) => {
  t.false(createAuthFailureLimiter(0).enabled);
});
