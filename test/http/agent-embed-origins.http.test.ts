import test from 'ava';
import { embedOriginProblem } from '../../schemas/http/embed-origin.ts';
import { landingPageHeaders } from '../../src/http/landing/page-html.ts';
import { httpSpec } from '../helpers/http-spec.ts';

// An agent's `public.allowed_origins` become the landing page's CSP frame-ancestors as they are
// (issue 42, item 20): exact origins only, and a 400 that names the entry at fault.

const agent = (allowed_origins: unknown[]) => ({ name: 'Helper', model: 'kbqa-extractive', public: { allowed_origins } });

const BAD = [
  'https://*',
  'https://*.example.com',
  '*',
  "'self'",
  "https://example.com 'unsafe-inline'",
  'https://example.com,https://other.example',
  'https://example.com;script-src *',
  'https://"example".com',
  'https://example.com/',
  'https://example.com/embed',
  'https://user@example.com',
  'https://Example.com',
  'https://example.com:443',
  'http://[::1]:8080',
  'https://exa_mple.com',
  'javascript:alert(1)',
  'data:',
];

test('allowed_origins: a wildcard, a quote, a space, a comma, a semicolon, a path or a spelling browsers do not send is 400 invalid_origin, naming the entry', async (t) => {
  const app = await httpSpec(t).app();
  for (const entry of BAD) {
    const res = await app.call('POST', '/v1/agents', { json: agent(['https://ok.example', entry]) });
    t.is(res.status, 400, entry);
    t.like(res.body, { error: { type: 'invalid_request_error', code: 'invalid_origin', param: 'public.allowed_origins.1' } }, entry);
    t.true(res.body.error.message.startsWith(`public.allowed_origins.1: ${JSON.stringify(entry)} `), res.body.error.message);
  }
  const created = await app.call('POST', '/v1/agents', { json: agent([]) });
  t.is(created.status, 201);
  const patched = await app.call('PATCH', `/v1/agents/${created.body.id}`, { json: { public: { allowed_origins: ['https://*'] } } });
  t.like(patched.body, { error: { code: 'invalid_origin', param: 'public.allowed_origins.0' } });
});

test('allowed_origins: exact origins as browsers send them are kept as given', async (t) => {
  const app = await httpSpec(t).app();
  const good = ['https://example.com', 'http://localhost:8080', 'https://docs.example.co.uk:8443', 'https://xn--bcher-kva.example', 'http://192.168.1.20:3000'];
  const res = await app.call('POST', '/v1/agents', { json: agent(good) });
  t.is(res.status, 201);
  t.deepEqual(res.body.public.allowed_origins, good);
  for (const entry of good) t.is(embedOriginProblem(entry), null, entry);
});

test('the landing page’s frame-ancestors keep only exact origins: an entry saved before the check (a wildcard, a quote) never reaches the policy', (t) => {
  const ancestors = (origins: string[]) => /frame-ancestors ([^;]+)/.exec(landingPageHeaders('nonce', origins)['content-security-policy']!)![1];
  t.is(ancestors(['https://ok.example', 'https://*', "'unsafe-inline'", 'https://a.example;script-src *']), 'https://ok.example');
  t.is(ancestors(['https://*']), "'none'");
  t.is(ancestors([]), "'none'");
});
