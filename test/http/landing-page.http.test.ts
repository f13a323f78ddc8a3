import test from 'ava';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// The landing page's server routes (docs/landing-page.md) over the real runtime, without a key.

let server: TestServer;
let kb: SampleKb;

test.before(async () => {
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_LANDING_MESSAGES_PER_MINUTE: '0' });
  kb = await sampleKnowledgeBase(server);
});
test.after.always(() => server?.close());

/** A published agent over the sample knowledge base; its slug. */
async function published(extra: Record<string, unknown> = {}, on: TestServer = server): Promise<{ id: string; slug: string }> {
  const created = await on.call('POST', '/v1/agents', { json: { name: 'Turbine helper', model: 'kbqa-extractive', knowledge_base_ids: [kb.kbId], ...extra } });
  const publication = await on.call('POST', `/v1/agents/${created.body.id}/publish`);
  return { id: created.body.id, slug: (publication.body.public_url as string).slice('/a/'.length) };
}

const ask = (slug: string, content: string, options: { cookie?: string; extra?: Record<string, unknown> } = {}, on: TestServer = server) =>
  on.call('POST', `/a/${slug}/chat`, { key: null, json: { messages: [{ role: 'user', content }], ...options.extra }, headers: options.cookie ? { cookie: options.cookie } : {} });
const cookieOf = (res: { headers: Headers }) => res.headers.get('set-cookie')?.split(';')[0];

test('the page: HTML with a strict CSP, frames only from allowed origins, the name never unescaped; 404 when unpublished', async (t) => {
  const { id, slug } = await published({ name: 'Helper <script>alert(1)</script>', public: { allowed_origins: ['https://example.com'] } });
  const page = await server.call('GET', `/a/${slug}`, { key: null });
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type')!, /^text\/html/);
  const html = String(page.body);
  t.false(html.includes('<script>alert(1)</script>'));
  t.regex(page.headers.get('content-security-policy')!, /frame-ancestors https:\/\/example\.com/);
  t.regex(page.headers.get('content-security-policy')!, /script-src 'nonce-/);
  t.false(html.includes(kb.kbId));

  await server.call('POST', `/v1/agents/${id}/unpublish`);
  const gone = await server.call('GET', `/a/${slug}`, { key: null });
  t.is(gone.status, 404);
  t.is((await ask(slug, 'Hello')).body.error.code, 'agent_not_found');
  t.is((await server.call('GET', '/a/no-such-slug-here', { key: null })).status, 404);
});

test('chat answers with public citations only; the visitor’s history, page images and feedback are theirs alone', async (t) => {
  const { slug } = await published();
  const first = await ask(slug, 'How long is each Zephyr-9 blade?');
  t.is(first.status, 200);
  const cookie = cookieOf(first)!;
  t.regex(first.headers.get('set-cookie')!, new RegExp(`HttpOnly.*SameSite=Lax|Path=/a/${slug}`));
  t.true(first.body.choices[0].message.content.includes('78'));
  const text = JSON.stringify(first.body);
  for (const hidden of [kb.kbId, 'knowledge_base_id', 'chunk_id', 'test-admin-key']) t.false(text.includes(hidden), hidden);
  const cited = (first.body.citations as { source: string; page: number; image_url: string | null }[]).find((c) => c.source === 'zephyr-9.pdf');
  t.truthy(cited?.image_url);
  t.deepEqual(Object.keys(first.body.citations[0]).sort(), ['document_version', 'image_url', 'index', 'page', 'paragraph', 'quote', 'source']);
  // Only what the answer cites, each with its quote (issue 43 item 11).
  const markers = [...new Set([...String(first.body.choices[0].message.content).matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort();
  t.deepEqual(first.body.citations.map((c: { index: number }) => c.index).sort(), markers);
  t.true(first.body.citations.every((c: { quote: string | null }) => c.quote !== null));

  const history = await server.call('GET', `/a/${slug}/history`, { key: null, headers: { cookie } });
  t.deepEqual(history.body.messages.map((m: { role: string }) => m.role), ['user', 'assistant']);
  t.is(history.body.messages[1].id, first.body.id);

  const image = await server.call('GET', cited!.image_url!, { key: null, headers: { cookie } });
  t.is(image.status, 200);
  t.is(image.headers.get('content-type'), 'image/png');
  // Another visitor, or one whose cookie was tampered with, is someone else: nothing of this conversation.
  const [version, id, granted, signature] = cookie.split('=')[1]!.split('.');
  const tampered = `kbqa_visitor=${version}.${id!.slice(0, -1)}${id!.endsWith('A') ? 'B' : 'A'}.${granted}.${signature}`;
  for (const stranger of [undefined, tampered]) {
    const headers: Record<string, string> = stranger ? { cookie: stranger } : {};
    const theirs = await server.call('GET', `/a/${slug}/history`, { key: null, headers });
    t.deepEqual(theirs.body.messages, []);
    t.truthy(cookieOf(theirs), 'a new visitor gets a cookie of their own');
    t.is((await server.call('GET', cited!.image_url!, { key: null, headers })).status, 404);
  }
  // Every citation shown to the visitor may be looked at; any other page is not there.
  const shown = new Set((first.body.citations as { page: number; image_url: string | null }[]).filter((c) => c.image_url).map((c) => c.page));
  const uncited = [1, 2, 3].find((n) => !shown.has(n))!;
  t.is((await server.call('GET', `/a/${slug}/pages/${kb.docs.turbine}/${uncited}`, { key: null, headers: { cookie } })).status, 404, 'a page no answer cited');
  t.is((await server.call('GET', `/a/${slug}/pages/${kb.docs.volcano}/1`, { key: null, headers: { cookie } })).status, 404, 'a document no answer cited');

  t.is((await server.call('POST', `/a/${slug}/feedback`, { key: null, headers: { cookie }, json: { message_id: first.body.id, rating: 'up' } })).status, 204);
  t.is((await server.call('POST', `/a/${slug}/feedback`, { key: null, json: { message_id: first.body.id, rating: 'up' } })).status, 404);
  t.is((await server.call('POST', `/a/${slug}/feedback`, { key: null, headers: { cookie }, json: { message_id: 'chatcmpl-nope', rating: 'down' } })).status, 404);
});

test('the chunk stream carries the message id on every chunk, and with the finish reason the public citations of what the answer cites', async (t) => {
  const { slug } = await published();
  const res = await ask(slug, 'How long is each Zephyr-9 blade?', { extra: { stream: true } });
  t.is(res.status, 200);
  const chunks = String(res.body)
    .split('\n')
    .filter((l) => l.startsWith('data: {'))
    .map((l) => JSON.parse(l.slice(6)));
  t.true(chunks.length >= 2);
  t.is(new Set(chunks.map((c) => c.id)).size, 1);
  // issue 43 item 11: only the passages the answer's markers name, each under its marker; no retrieval context on the public page.
  const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
  const markers = [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort();
  t.true(markers.length > 0, text);
  t.true(chunks.every((c, i) => (c.citations === undefined) === (i !== chunks.length - 1)), 'citations travel with the finish reason only');
  t.deepEqual(chunks.at(-1).citations.map((c: { index: number }) => c.index).sort(), markers);
  t.true(chunks.every((c) => c.context === undefined));
  t.false(String(res.body).includes(kb.kbId));
  t.false(String(res.body).includes('chunk_id'));
});

test('an access code is asked for (401 required / invalid), compared as a hash, and remembered in the cookie', async (t) => {
  const { slug } = await published({ public: { access_code: 'turbine-2024' } });
  const view = String((await server.call('GET', `/a/${slug}`, { key: null })).body);
  t.true(view.includes('"access_code_required":true'));
  t.is((await ask(slug, 'Hello')).body.error.code, 'access_code_required');
  const wrong = await ask(slug, 'Hello', { extra: { access_code: 'guess' } });
  t.is(wrong.status, 401);
  t.is(wrong.body.error.code, 'access_code_invalid');
  const right = await ask(slug, 'How long is a blade?', { extra: { access_code: 'turbine-2024' } });
  t.is(right.status, 200);
  const cookie = right.headers.get('set-cookie')!.split(', kbqa_visitor=').at(-1)!.split(';')[0]!;
  t.is((await ask(slug, 'And the output?', { cookie: cookie.startsWith('kbqa_visitor=') ? cookie : `kbqa_visitor=${cookie}` })).status, 200);
});

test('daily caps per visitor and per agent answer 429 with retry-after until UTC midnight', async (t) => {
  const visitorCapped = await published({ public: { visitor_daily_message_cap: 1 } });
  const first = await ask(visitorCapped.slug, 'Hello');
  t.is(first.status, 200);
  const again = await ask(visitorCapped.slug, 'Hello again', { cookie: cookieOf(first) });
  t.is(again.status, 429);
  t.is(again.body.error.code, 'visitor_daily_cap_reached');
  t.true(Number(again.headers.get('retry-after')) > 0 && Number(again.headers.get('retry-after')) <= 86_400);
  t.is((await ask(visitorCapped.slug, 'A new visitor')).status, 200);

  const agentCapped = await published({ public: { daily_message_cap: 1 } });
  t.is((await ask(agentCapped.slug, 'Hello')).status, 200);
  const over = await ask(agentCapped.slug, 'Someone else');
  t.is(over.status, 429);
  t.is(over.body.error.code, 'agent_daily_cap_reached');
});

test('bodies over 32 KB are refused with 413', async (t) => {
  const { slug } = await published();
  const res = await server.call('POST', `/a/${slug}/chat`, { key: null, raw: JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(33 * 1024) }] }), headers: { 'content-type': 'application/json' } });
  t.is(res.status, 413);
});

test('one address may send a limited number of messages a minute (429 rate_limited with Retry-After)', async (t) => {
  const limitedServer = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_LANDING_MESSAGES_PER_MINUTE: '2' });
  t.teardown(() => limitedServer.close());
  const created = await limitedServer.call('POST', '/v1/agents', { json: { name: 'Plain', model: 'kbqa-extractive' } });
  const slug = ((await limitedServer.call('POST', `/v1/agents/${created.body.id}/publish`)).body.public_url as string).slice(3);
  t.is((await ask(slug, 'one', {}, limitedServer)).status, 200);
  t.is((await ask(slug, 'two', {}, limitedServer)).status, 200);
  const third = await ask(slug, 'three', {}, limitedServer);
  t.is(third.status, 429);
  t.is(third.body.error.code, 'rate_limited');
  t.true(Number(third.headers.get('retry-after')) >= 1);
});
