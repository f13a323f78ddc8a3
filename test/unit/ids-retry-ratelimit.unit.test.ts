import test from 'ava';
import { createIdGenerator } from '../../src/app/ids.ts';
import { backoffDelay, isRetriable, PermanentError } from '../../src/lib/retry.ts';
import { ApiError } from '../../src/ports/api-error.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';

test('ids sort in creation order, also within one millisecond', (t) => {
  let now = 1_700_000_000_000;
  const next = createIdGenerator(() => now);
  const ids = [next('kb'), next('kb'), next('kb')];
  now += 1;
  ids.push(next('kb'));
  t.deepEqual([...ids].sort(), ids);
  t.is(new Set(ids).size, 4);
  t.regex(ids[0]!, /^kb_[0-9a-z]{26}$/);
});

test('backoff grows exponentially up to its cap, with jitter below the ceiling', (t) => {
  const b = { attempts: 5, baseMs: 10, maxMs: 50 };
  t.is(backoffDelay(1, b, () => 1), 10);
  t.is(backoffDelay(3, b, () => 1), 40);
  t.is(backoffDelay(6, b, () => 1), 50);
  t.is(backoffDelay(3, b, () => 0.5), 20);
});

test('permanent errors are not retried; everything else is', (t) => {
  t.false(isRetriable(new PermanentError('bad data')));
  t.true(isRetriable(new Error('database is locked')));
  t.false(isRetriable(new ApiError(401, 'authentication_error', 'invalid_api_key', 'the provider refused the key')), 'a provider 4xx is parked at once');
  t.true(isRetriable(new ApiError(429, 'rate_limit_error', 'rate_limited', 'slow down')));
  t.true(isRetriable(new ApiError(503, 'server_error', 'service_unavailable', 'try later')));
});

test('rate limiter: a full bucket, then 429 with retry-after, then refill', (t) => {
  let now = 0;
  const limiter = createRateLimiter(2, () => now);
  t.is(limiter.check('k')['x-ratelimit-remaining-requests'], '1');
  t.is(limiter.check('k')['x-ratelimit-remaining-requests'], '0');
  const error = t.throws(() => limiter.check('k'), { instanceOf: ApiError });
  t.is(error?.status, 429);
  t.is(error?.headers['retry-after'], '30');
  t.is(error?.headers['x-ratelimit-limit-requests'], '2');
  t.notThrows(() => limiter.check('other key'));
  now += 30_000;
  t.notThrows(() => limiter.check('k'));
});
