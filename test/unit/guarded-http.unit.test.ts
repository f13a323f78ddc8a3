import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { NOTHING_ALLOWED, parseHostAllowList } from '../../src/lib/address-policy.ts';
import { GuardedHttpError } from '../../src/lib/guarded-http/errors.ts';
import { guardedRequest, type GuardedRequest } from '../../src/lib/guarded-http/request.ts';
import { pinnedLookup } from '../../src/lib/guarded-http/resolve.ts';

/** Serial tests: they read what the one local server saw. A local server: /ok answers JSON, /to?url= redirects there, /redirect-loop forever, /big 2 MB, /slow never. */
let server: Server;
let port: number;
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];

test.before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    seen.push({ path: url.pathname, headers: req.headers });
    if (url.pathname === '/to') return void res.writeHead(302, { location: url.searchParams.get('url')! }).end();
    if (url.pathname === '/redirect-loop') return void res.writeHead(307, { location: '/redirect-loop' }).end();
    if (url.pathname === '/big') return void res.end(Buffer.alloc(2 * 1024 * 1024, 'a'));
    if (url.pathname === '/slow') return;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, method: req.method }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
test.after.always(() => server?.closeAllConnections() ?? server?.close());

const base = (url: string, extra: Partial<GuardedRequest> = {}): GuardedRequest => ({ method: 'GET', url, headers: {}, timeoutMs: 3000, maxResponseBytes: 1024 * 1024, allow: NOTHING_ALLOWED, ...extra });
const loopbackAllowed = parseHostAllowList(['127.0.0.1']);

async function refused(t: import('ava').ExecutionContext, url: string, code: GuardedHttpError['code'] = 'http_forbidden_address', extra: Partial<GuardedRequest> = {}) {
  const error = await t.throwsAsync(guardedRequest(base(url, extra)), { instanceOf: GuardedHttpError }, url);
  t.is(error?.code, code, `${url}: ${error?.message}`);
}

test.serial('loopback, private, metadata, IPv6, mapped and decimal spellings are refused before any connection', async (t) => {
  const before = seen.length;
  for (const url of [
    `http://127.0.0.1:${port}/ok`,
    `http://2130706433:${port}/ok`,
    `http://0x7f000001:${port}/ok`,
    `http://017700000001:${port}/ok`,
    `http://127.1:${port}/ok`,
    `http://[::1]:${port}/ok`,
    `http://[::ffff:127.0.0.1]:${port}/ok`,
    `http://[::ffff:7f00:1]:${port}/ok`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://100.100.100.200/latest/meta-data/',
    'http://10.0.0.1/',
    'http://192.168.0.1/',
    'http://0.0.0.0/',
    'http://[::]/',
  ]) {
    await refused(t, url);
  }
  t.is(seen.length, before, 'the local server heard nothing');
});

test.serial('a host name that resolves to loopback is refused after resolution (localhost)', async (t) => {
  await refused(t, `http://localhost:${port}/ok`);
});

test.serial('only http and https', async (t) => {
  await refused(t, 'file:///etc/passwd', 'http_bad_url');
  await refused(t, 'ftp://example.com/', 'http_bad_url');
  await refused(t, 'gopher://127.0.0.1:6379/_INFO', 'http_bad_url');
  await refused(t, 'not a url', 'http_bad_url');
});

test.serial('the operator allow-list lets the local server through', async (t) => {
  const response = await guardedRequest(base(`http://127.0.0.1:${port}/ok`, { allow: loopbackAllowed }));
  t.is(response.status, 200);
  t.deepEqual(JSON.parse(response.body.toString()), { ok: true, method: 'GET' });
  const byName = await guardedRequest(base(`http://localhost:${port}/ok`, { allow: parseHostAllowList(['localhost']) }));
  t.is(byName.status, 200);
});

test.serial('every redirect is checked again: an allowed host redirecting to a private or metadata address is refused', async (t) => {
  const allow = parseHostAllowList(['localhost']);
  await refused(t, `http://localhost:${port}/to?url=${encodeURIComponent(`http://127.0.0.1:${port}/ok`)}`, 'http_forbidden_address', { allow });
  await refused(t, `http://localhost:${port}/to?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`, 'http_forbidden_address', { allow });
  await refused(t, `http://localhost:${port}/to?url=${encodeURIComponent('file:///etc/passwd')}`, 'http_bad_url', { allow });
  // Allowed on both hops, the redirect is followed.
  const followed = await guardedRequest(base(`http://localhost:${port}/to?url=${encodeURIComponent(`http://localhost:${port}/ok`)}`, { allow }));
  t.is(followed.status, 200);
});

test.serial('at most five redirects', async (t) => {
  await refused(t, `http://127.0.0.1:${port}/redirect-loop`, 'http_redirects', { allow: loopbackAllowed });
});

test.serial('credentials are not carried to another origin on a redirect', async (t) => {
  const allow = parseHostAllowList(['localhost', '127.0.0.1']);
  seen.length = 0;
  const url = `http://localhost:${port}/to?url=${encodeURIComponent(`http://127.0.0.1:${port}/ok`)}`;
  await guardedRequest(base(url, { allow, headers: { authorization: 'Bearer s3cr3t-token', 'x-api-key': 'k3y-value', 'x-plain': 'p' }, sensitiveHeaders: ['x-api-key'] }));
  const [first, second] = seen;
  t.is(first?.headers.authorization, 'Bearer s3cr3t-token');
  t.is(first?.headers['x-api-key'], 'k3y-value');
  t.is(second?.path, '/ok');
  t.is(second?.headers.authorization, undefined);
  t.is(second?.headers['x-api-key'], undefined);
  t.is(second?.headers['x-plain'], 'p');
});

test.serial('a header bound to destinations is sent only where they allow, checked on every hop before anything is sent', async (t) => {
  const allow = parseHostAllowList(['localhost', '127.0.0.1']);
  const headers = { 'x-api-key': 'k3y-value-bound' };
  const onlyLocalhost = { header: 'X-Api-Key', allows: (host: string) => host === 'localhost', refusal: (host: string) => `not to ${host}` };
  seen.length = 0;
  const error = await t.throwsAsync(guardedRequest(base(`http://127.0.0.1:${port}/ok`, { allow, headers, sensitiveHeaders: ['x-api-key'], boundHeaders: [onlyLocalhost] })), { instanceOf: GuardedHttpError });
  t.is(error?.code, 'http_destination_refused');
  t.is(error?.message, 'not to 127.0.0.1');
  t.is(seen.length, 0, 'refused before connecting');

  // Allowed at the first hop, not at the second (same origin, so the header would still be sent): refused there.
  let hops = 0;
  const firstHopOnly = { ...onlyLocalhost, allows: () => hops++ === 0 };
  const again = await t.throwsAsync(guardedRequest(base(`http://localhost:${port}/to?url=/ok`, { allow, headers, sensitiveHeaders: ['x-api-key'], boundHeaders: [firstHopOnly] })), { instanceOf: GuardedHttpError });
  t.is(again?.code, 'http_destination_refused');
  t.deepEqual(seen.map((s) => s.path), ['/to'], 'the second hop never happened');

  // Leaving the origin drops the header, so the host it goes to no longer needs to allow it.
  seen.length = 0;
  const away = `http://localhost:${port}/to?url=${encodeURIComponent(`http://127.0.0.1:${port}/ok`)}`;
  t.is((await guardedRequest(base(away, { allow, headers, sensitiveHeaders: ['x-api-key'], boundHeaders: [onlyLocalhost] }))).status, 200);
  t.deepEqual(seen.map((s) => s.headers['x-api-key']), ['k3y-value-bound', undefined]);
});

test.serial('a response over the size limit and one that never comes fail with their own codes', async (t) => {
  await refused(t, `http://127.0.0.1:${port}/big`, 'http_too_large', { allow: loopbackAllowed });
  await refused(t, `http://127.0.0.1:${port}/slow`, 'http_timeout', { allow: loopbackAllowed, timeoutMs: 200 });
});

test.serial('a refused connection is a network failure (retriable), not a crash', async (t) => {
  const error = await t.throwsAsync(guardedRequest(base('http://127.0.0.1:1/', { allow: loopbackAllowed })), { instanceOf: GuardedHttpError });
  t.is(error?.code, 'http_network');
  t.true(error?.retriable);
});

test.serial('the connection is pinned: the lookup the socket uses answers with the checked address only, in both conventions', (t) => {
  const lookup = pinnedLookup({ address: '93.184.216.34', family: 4 });
  lookup('rebinding.example', {}, (error: unknown, address: unknown, family: unknown) => t.deepEqual([error, address, family], [null, '93.184.216.34', 4]));
  lookup('rebinding.example', { all: true }, (error: unknown, all: unknown) => t.deepEqual([error, all], [null, [{ address: '93.184.216.34', family: 4 }]]));
});
