import test from 'ava';
import { readConsoleBuild } from '../../src/http/console/build-output.ts';
import { startSpecApp } from '../helpers/spec-app.ts';

const built = readConsoleBuild();
if (!built) process.stderr.write('console page tests skipped: the console is not built (run `npm run build:console`)\n');
const withBuild = built ? test : test.skip;

withBuild('GET / is the console: no-cache HTML under a strict CSP, naming hashed files that are cached for a year', async (t) => {
  const app = await startSpecApp();
  t.teardown(() => app.close());
  const page = await fetch(`${app.url}/`);
  t.is(page.status, 200);
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.is(page.headers.get('cache-control'), 'no-cache');
  const csp = page.headers.get('content-security-policy')!;
  t.regex(csp, /script-src 'self'(;|$)/);
  t.regex(csp, /frame-ancestors 'none'/);
  t.notRegex(csp, /unsafe-inline|unsafe-eval/);
  const html = await page.text();
  const script = /src="(\/assets\/console\/[^"]+\.js)"/.exec(html)?.[1];
  t.truthy(script, 'the page names its script');
  t.notRegex(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');

  const asset = await fetch(`${app.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
  t.is(asset.status, 200);
  t.is(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.is(asset.headers.get('content-type'), 'text/javascript; charset=utf-8');
  const again = await fetch(`${app.url}${script}`, { headers: { 'if-none-match': asset.headers.get('etag')! } });
  t.is(again.status, 304);
});

withBuild('a browser opening a deep link gets the console; a JSON client and the API paths keep their 404s', async (t) => {
  const app = await startSpecApp();
  t.teardown(() => app.close());
  const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
  for (const path of ['/knowledge-bases/kb_x/retrieval', '/agents/agt_1', '/api-keys', '/sign-in']) {
    const res = await fetch(`${app.url}${path}`, { headers: browser });
    t.is(res.status, 200, path);
    t.regex(await res.text(), /<div id="root">/, path);
  }
  const json = await fetch(`${app.url}/knowledge-bases/kb_x`);
  t.is(json.status, 404);
  t.is(((await json.json()) as { error: { code: string } }).error.code, 'route_not_found');
  for (const path of ['/v1/nothing', '/nothing', '/a/none/x', '/assets/console/none.js']) {
    const res = await fetch(`${app.url}${path}`, { headers: browser });
    t.is(res.status, 404, path);
  }
});

test('GET /favicon.ico is a small SVG icon, not a 404 on every page opened', async (t) => {
  const app = await startSpecApp();
  t.teardown(() => app.close());
  const icon = await fetch(`${app.url}/favicon.ico`);
  t.is(icon.status, 200);
  t.is(icon.headers.get('content-type'), 'image/svg+xml');
  t.regex(await icon.text(), /^<svg [^>]*viewBox/);
});
