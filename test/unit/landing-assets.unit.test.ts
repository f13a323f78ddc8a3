import { gunzipSync } from 'node:zlib';
import test from 'ava';
import type { Context } from 'koa';
import { landingAssetRoutes } from '../../src/http/landing/assets.ts';
import { landingBundle } from '../../src/http/landing/bundle.ts';
import type { Reply } from '../../src/http/route.ts';

const [assets] = landingAssetRoutes();

/** The route's reply to GET /assets/landing/{file} with these request headers. */
function get(file: string, headers: Record<string, string> = {}) {
  const ctx = { get: (name: string) => headers[name] ?? '', acceptsEncodings: (...encodings: string[]) => (headers['accept-encoding']?.includes('gzip') ? 'gzip' : encodings.at(-1)) };
  return assets!.handle({ ctx: ctx as unknown as Context, params: { file } } as never) as Reply;
}

test('the script and style: public, hashed, immutable, gzipped for who accepts it', (t) => {
  const { script, style, files } = landingBundle();
  const plain = get(script);
  t.like(plain.headers, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable', vary: 'accept-encoding' });
  const zipped = get(script, { 'accept-encoding': 'gzip, br' });
  t.is(zipped.headers!['content-encoding'], 'gzip');
  t.deepEqual(gunzipSync(zipped.body as Buffer), plain.body);
  t.is(get(style).headers!['content-type'], 'text/css; charset=utf-8');
  t.is(assets!.scope, 'public');
  t.true(files.has('embed.js'));
});

test('embed.js keeps its name across releases, so it is cached briefly and may be loaded by any site', (t) => {
  t.like(get('embed.js').headers, { 'cache-control': 'public, max-age=300', 'cross-origin-resource-policy': 'cross-origin' });
});

test('a known ETag is a 304; an unknown file a 404', (t) => {
  const { etag } = get('embed.js').headers!;
  t.is(get('embed.js', { 'if-none-match': etag! }).status, 304);
  t.throws(() => get('nope.js'), { message: /No landing-page asset nope\.js/ });
});

test('the JavaScript stays far under its budget (60 KB gzipped)', (t) => {
  const { files, script } = landingBundle();
  t.true(files.get(script)!.gzip.length < 15_000, `main: ${files.get(script)!.gzip.length} bytes gzipped`);
  t.true(files.get('embed.js')!.gzip.length < 2_000);
});
