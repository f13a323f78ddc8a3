import test from 'ava';
import { apiKeyCreated } from '../helpers/given-events.ts';
import { httpSpec } from '../helpers/http-spec.ts';

/** Wrong API keys limited per client address and key prefix (issue 42, item 18; docs/access-control.md). */
const KEY = 'kbqa-weakish-admin-key-0001';
const OTHER_KEY = 'kbqa-second-valid-key-00002';
const CONSOLE = { 'x-kbqa-console': '1' };

const world = (t: Parameters<typeof httpSpec>[0], env: Record<string, string> = { KBQA_AUTH_FAILURES_PER_MINUTE: '3' }) =>
  httpSpec(t, { env })
    .given(apiKeyCreated({ id: 'key_weak', secret: KEY, scopes: ['admin'] }), apiKeyCreated({ id: 'key_second', secret: OTHER_KEY, scopes: ['read'] }))
    .app();

test('wrong bearer keys from one address: 401 up to the budget, then 429 with retry-after for any key; the key that was working there still works', async (t) => {
  const app = await world(t);
  // As a proxy in front passes the client on: the last X-Forwarded-For entry (src/http/client-address.ts).
  const from = (address: string, key: string) => app.call('GET', '/v1/models', { key, headers: { 'x-forwarded-for': address } });
  t.is((await from('203.0.113.9', KEY)).status, 200);
  const guesses = [];
  for (let i = 0; i < 4; i++) guesses.push(await from('203.0.113.9', `kbqa-guess-${i}-${'x'.repeat(20)}`));
  t.deepEqual(guesses.map((r) => r.status), [401, 401, 401, 429]);
  t.like(guesses[3]!.body, { error: { type: 'rate_limit_error', code: 'too_many_failed_authentications', param: null } });
  t.true(Number(guesses[3]!.headers.get('retry-after')) >= 1);
  t.is((await from('203.0.113.9', OTHER_KEY)).status, 429, 'a right key never used from there is refused too: a guess learns nothing');
  t.is((await from('203.0.113.9', KEY)).status, 200, 'the client that was working is not locked out with its neighbour');
  t.is((await from('198.51.100.7', OTHER_KEY)).status, 200, 'another address has its own budget');
  t.is((await from('198.51.100.7, 203.0.113.9', `kbqa-guess-9-${'x'.repeat(20)}`)).status, 429, 'what the client writes before the proxy’s entry changes nothing');
});

test('wrong keys with one key’s prefix from rotating addresses lock that prefix out; successful requests count nothing', async (t) => {
  const app = await world(t);
  const from = (address: string, key: string) => app.call('GET', '/v1/models', { key, headers: { 'x-forwarded-for': address } });
  for (let i = 0; i < 50; i++) t.is((await from('10.0.0.1', KEY)).status, 200);
  const prefix = KEY.slice(0, 12);
  const guesses = [];
  for (let i = 0; i < 4; i++) guesses.push((await from(`203.0.113.${i}`, `${prefix}guess-${i}-${'y'.repeat(12)}`)).status);
  t.deepEqual(guesses, [401, 401, 401, 429]);
  t.is((await from('203.0.113.99', KEY)).status, 429, 'the key itself, from an address it never worked from');
  t.is((await from('10.0.0.1', KEY)).status, 200);
});

test('wrong keys at the console’s sign-in count with the bearer ones', async (t) => {
  const app = await world(t, { KBQA_AUTH_FAILURES_PER_MINUTE: '3', KBQA_CONSOLE_SIGNINS_PER_MINUTE: '0' });
  const headers = { 'x-forwarded-for': '203.0.113.9' };
  const signIn = (apiKey: string) => app.call('POST', '/console/session', { key: null, json: { api_key: apiKey }, headers: { ...headers, ...CONSOLE } });
  t.is((await signIn('kbqa-guess-a-zzzzzzzzzzzz')).status, 401);
  t.is((await signIn('kbqa-guess-b-zzzzzzzzzzzz')).status, 401);
  t.is((await app.call('GET', '/v1/models', { key: 'kbqa-guess-c-zzzzzzzzzzzz', headers })).status, 401);
  const refused = await signIn(KEY);
  t.is(refused.status, 429);
  t.is(refused.headers.get('set-cookie'), null);
});

test('by default an address has 20 wrong keys a minute', async (t) => {
  const app = await world(t, {});
  const statuses = [];
  for (let i = 0; i < 21; i++) statuses.push((await app.call('GET', '/v1/models', { key: `kbqa-guess-${i}-${'w'.repeat(16)}` })).status);
  t.deepEqual(statuses, [...Array(20).fill(401), 429]);
});
