import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { NOTHING_ALLOWED, parseHostAllowList } from '../../src/lib/address-policy.ts';
import { guardedFetch } from '../../src/lib/guarded-http/fetch.ts';

/** The fetch workspace model providers are reached with: fetch's behaviour, the address policy's refusals. */
let server: Server;
let origin: string;
let hits = 0;

test.before(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.url === '/redirect') return void res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    if (req.url === '/gzip') return void res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('unzipped'));
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] }).end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after.always(() => server?.close());

const allowed = guardedFetch(parseHostAllowList(['127.0.0.1']));

test.serial('without the allow-list loopback is refused before connecting, as fetch fails: a TypeError whose cause names the policy', async (t) => {
  const before = hits;
  const error = await t.throwsAsync(guardedFetch(NOTHING_ALLOWED)(`${origin}/x`), { instanceOf: TypeError });
  t.is((error?.cause as { code?: string }).code, 'http_forbidden_address');
  t.is(hits, before);
});

test.serial('with it, a request and its answer as fetch gives them: method, headers, body, status, repeated headers', async (t) => {
  const response = await allowed(`${origin}/echo`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{"a":1}' });
  t.is(response.status, 201);
  t.deepEqual(await response.json(), { method: 'POST', body: '{"a":1}', auth: 'Bearer k' });
  t.is(response.headers.get('set-cookie'), 'a=1, b=2');
});

test.serial('a redirect is the answer, not followed; a gzip body is decoded; an aborted signal is the abort', async (t) => {
  const redirected = await allowed(`${origin}/redirect`);
  t.is(redirected.status, 302);
  t.is(redirected.headers.get('location'), 'http://169.254.169.254/');
  t.is(await (await allowed(`${origin}/gzip`)).text(), 'unzipped');
  const controller = new AbortController();
  controller.abort();
  const aborted: unknown = await allowed(`${origin}/x`, { signal: controller.signal }).catch((error: unknown) => error);
  t.is((aborted as DOMException).name, 'AbortError');
});
