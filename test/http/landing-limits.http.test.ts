import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.ts';

// The landing page's limits on who may ask how often (docs/landing-page.md, issue 42 item 4): the
// address is the one the proxy in front saw (KBQA_TRUST_PROXY), and wrong access codes are limited
// per agent, whichever addresses they come from.

async function publishedOn(on: TestServer, extra: Record<string, unknown> = {}) {
  const created = await on.call('POST', '/v1/agents', { json: { name: 'Plain', model: 'kbqa-extractive', ...extra } });
  return ((await on.call('POST', `/v1/agents/${created.body.id}/publish`)).body.public_url as string).slice('/a/'.length);
}

const askFrom = (on: TestServer, slug: string, forwardedFor: string | null, extra: Record<string, unknown> = {}, cookie?: string) =>
  on.call('POST', `/a/${slug}/chat`, {
    key: null,
    json: { messages: [{ role: 'user', content: 'Hello' }], ...extra },
    headers: { ...(forwardedFor !== null && { 'x-forwarded-for': forwardedFor }), ...(cookie && { cookie }) },
  });

test('behind one proxy the limit counts the address it appended: rotating what the client writes before it changes nothing', async (t) => {
  const server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_LANDING_MESSAGES_PER_MINUTE: '2' });
  t.teardown(() => server.close());
  const slug = await publishedOn(server);
  const statuses = [];
  for (let i = 1; i <= 4; i++) statuses.push((await askFrom(server, slug, `198.51.100.${i}, 203.0.113.9`)).status);
  t.deepEqual(statuses, [200, 200, 429, 429]);
  const refused = await askFrom(server, slug, '192.0.2.1, 203.0.113.9');
  t.like(refused.body, { error: { type: 'rate_limit_error', code: 'rate_limited' } });
  t.true(Number(refused.headers.get('retry-after')) >= 1);
  t.is((await askFrom(server, slug, '198.51.100.1, 203.0.113.10')).status, 200, 'another client behind the proxy has its own budget');
});

test('KBQA_TRUST_PROXY=0 (no proxy in front): X-Forwarded-For is the client’s own writing and is ignored', async (t) => {
  const server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_LANDING_MESSAGES_PER_MINUTE: '2', KBQA_TRUST_PROXY: '0' });
  t.teardown(() => server.close());
  const slug = await publishedOn(server);
  const statuses = [];
  for (let i = 1; i <= 3; i++) statuses.push((await askFrom(server, slug, `198.51.100.${i}`)).status);
  t.deepEqual(statuses, [200, 200, 429]);
});

test('wrong access codes are limited per agent across addresses: 429 access_code_attempts with retry-after; a visitor already admitted goes on', async (t) => {
  const server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_LANDING_MESSAGES_PER_MINUTE: '0', KBQA_LANDING_CODE_FAILURES_PER_MINUTE: '3' });
  t.teardown(() => server.close());
  const slug = await publishedOn(server, { public: { access_code: 'turbine-2024' } });
  const other = await publishedOn(server, { public: { access_code: 'other-code' } });
  const admitted = await askFrom(server, slug, '192.0.2.50', { access_code: 'turbine-2024' });
  t.is(admitted.status, 200);
  const cookie = admitted.headers.get('set-cookie')!.split(', ').at(-1)!.split(';')[0]!;

  const guesses = [];
  for (let i = 1; i <= 5; i++) guesses.push(await askFrom(server, slug, `198.51.100.${i}`, { access_code: `guess-${i}` }));
  t.deepEqual(guesses.map((r) => r.status), [401, 401, 401, 429, 429]);
  t.like(guesses[3]!.body, { error: { type: 'rate_limit_error', code: 'access_code_attempts_exceeded' } });
  t.true(Number(guesses[3]!.headers.get('retry-after')) >= 1);
  t.is((await askFrom(server, slug, '198.51.100.99', { access_code: 'turbine-2024' })).status, 429, 'while locked, even the right code waits: guessing learns nothing');
  t.is((await askFrom(server, slug, '192.0.2.50', {}, cookie)).status, 200, 'an admitted visitor sends no code and is not held up');
  t.is((await askFrom(server, other, '198.51.100.1', { access_code: 'other-code' })).status, 200, 'another agent has its own budget');
});
