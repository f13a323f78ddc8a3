import test from 'ava';
import { embedSnippet } from '../../src/http/landing/embed-snippet.ts';
import { type LandingPageView, landingPageHeaders, renderLandingPage } from '../../src/http/landing/page-html.ts';

const HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)>';
const view: LandingPageView = {
  slug: 'demo',
  name: `Evil ${HOSTILE}`,
  opening_message: `Hello ${HOSTILE}`,
  suggested_questions: [`Why ${HOSTILE}?`],
  access_code_required: false,
};

/** The page's tags: what a browser would parse as elements, in order. */
const tags = (html: string) => [...html.matchAll(/<([a-z][a-z0-9]*)\b/gi)].map((m) => m[1]!.toLowerCase());

test('owner-written text never reaches the HTML as markup: name, opening message, suggested questions', (t) => {
  const html = renderLandingPage(view, { nonce: 'n0nce' });
  t.false(html.includes('<script>alert'));
  t.false(html.includes('<img src=x'));
  t.false(html.includes('</script><script>alert'));
  // Exactly the page's own elements: two scripts (bundle, data), no third from the text.
  t.is(tags(html).filter((tag) => tag === 'script').length, 2);
  t.is(tags(html).filter((tag) => tag === 'img').length, 0);
  t.true(html.includes('<h1>Evil &#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62;'));
});

test('the embedded view is JSON with every < escaped, and reads back as the view', (t) => {
  const html = renderLandingPage(view, { nonce: 'n0nce' });
  const json = /<script type="application\/json" id="kbqa-agent" nonce="n0nce">(.*?)<\/script>/.exec(html)![1]!;
  t.false(json.includes('<'));
  t.deepEqual(JSON.parse(json), view);
});

test('every script carries the nonce and none is inline code; the bundle and style are hashed asset names', (t) => {
  const html = renderLandingPage({ ...view, name: 'Helper', opening_message: 'Hi', suggested_questions: [] }, { nonce: 'abc123' });
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
  t.true(scripts.every((attributes) => attributes.includes('nonce="abc123"')));
  t.regex(html, /<script src="\/assets\/landing\/main-[A-Z0-9]+\.js" nonce="abc123" defer><\/script>/);
  t.regex(html, /<link rel="stylesheet" href="\/assets\/landing\/style-[A-Z0-9]+\.css">/);
  t.false(/\son[a-z]+=/i.test(html), 'no inline event handler');
});

test('the CSP allows only the nonce\'s scripts, this origin, and the allowed framers', (t) => {
  const headers = landingPageHeaders('abc123', []);
  const csp = Object.fromEntries(headers['content-security-policy']!.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
  t.like(csp, {
    'default-src': "'none'",
    'script-src': "'nonce-abc123'",
    'style-src': "'self'",
    'img-src': "'self'",
    'connect-src': "'self'",
    'base-uri': "'none'",
    'frame-ancestors': "'none'",
    'require-trusted-types-for': "'script'",
  });
  t.false(headers['content-security-policy']!.includes('unsafe'));
  t.like(headers, { 'content-type': 'text/html; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  t.true(landingPageHeaders('n', ['https://a.example', 'https://b.example'])['content-security-policy']!.includes('frame-ancestors https://a.example https://b.example;'));
});

test('the embed snippet: the frame and the script, the owner\'s name and slug HTML-escaped', (t) => {
  t.deepEqual(embedSnippet('https://kb.example/', 'demo', 'Help "desk" <b>'), {
    iframe: '<iframe src="https://kb.example/a/demo" title="Help &#34;desk&#34; &#60;b&#62;" width="400" height="600" loading="lazy" allow="clipboard-write" style="border:0"></iframe>',
    script: '<script src="https://kb.example/assets/landing/embed.js" data-kbqa-agent="demo" defer></script>',
  });
});
