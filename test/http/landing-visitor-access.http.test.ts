import test from 'ava';
import { sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// What a landing-page visitor keeps, and what they are told (docs/landing-page.md; issue 42 items
// 14–16): a visitor's access follows the agent's current published version, feedback is throttled
// and idempotent, and a failed run's detail stays with the operator.

let server: TestServer;
let kb: SampleKb;

test.before(async () => {
  server = await startServer({ KBQA_RATE_LIMIT_PER_MINUTE: '0', KBQA_LANDING_MESSAGES_PER_MINUTE: '0' });
  kb = await sampleKnowledgeBase(server);
});
test.after.always(() => server?.close());

async function published(extra: Record<string, unknown> = {}): Promise<{ id: string; slug: string }> {
  const created = await server.call('POST', '/v1/agents', { json: { name: 'Turbine helper', model: 'kbqa-extractive', knowledge_base_ids: [kb.kbId], ...extra } });
  if (created.status !== 201) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
  const publication = await server.call('POST', `/v1/agents/${created.body.id}/publish`);
  return { id: created.body.id, slug: (publication.body.public_url as string).slice('/a/'.length) };
}

async function republish(id: string, patch: Record<string, unknown>) {
  const patched = await server.call('PATCH', `/v1/agents/${id}`, { json: patch });
  if (patched.status !== 200) throw new Error(`${patched.status} ${JSON.stringify(patched.body)}`);
  await server.call('POST', `/v1/agents/${id}/publish`);
}

const ask = (slug: string, content: string, cookie?: string, extra: Record<string, unknown> = {}) =>
  server.call('POST', `/a/${slug}/chat`, { key: null, json: { messages: [{ role: 'user', content }], ...extra }, headers: cookie ? { cookie } : {} });
const lastCookie = (res: { headers: Headers }) => res.headers.get('set-cookie')?.split(', kbqa_visitor=').at(-1)?.split(';')[0];
const asCookie = (value: string) => (value.startsWith('kbqa_visitor=') ? value : `kbqa_visitor=${value}`);
const history = (slug: string, cookie: string) => server.call('GET', `/a/${slug}/history`, { key: null, headers: { cookie } });
const feedback = (slug: string, cookie: string, body: Record<string, unknown>) => server.call('POST', `/a/${slug}/feedback`, { key: null, headers: { cookie }, json: body });

/** A visitor's first answer with a page image: their cookie, the answer's id and the image's address. */
async function visitorWithPage(slug: string, extra: Record<string, unknown> = {}) {
  const first = await ask(slug, 'How long is each Zephyr-9 blade?', undefined, extra);
  if (first.status !== 200) throw new Error(`${first.status} ${JSON.stringify(first.body)}`);
  const image = (first.body.citations as { image_url: string | null }[]).find((c) => c.image_url)!.image_url!;
  return { cookie: asCookie(lastCookie(first)!), answerId: first.body.id as string, image };
}

test('a new access code asks the visitor again: history, page images and feedback are refused (401) until they give it', async (t) => {
  const { id, slug } = await published({ public: { access_code: 'turbine-2024' } });
  const { cookie, answerId, image } = await visitorWithPage(slug, { access_code: 'turbine-2024' });
  t.is((await history(slug, cookie)).body.messages.length, 2);
  t.is((await server.call('GET', image, { key: null, headers: { cookie } })).status, 200);

  await republish(id, { public: { access_code: 'zephyr-2025' } });
  const refusedHistory = await history(slug, cookie);
  t.is(refusedHistory.status, 401);
  t.is(refusedHistory.body.error.code, 'access_code_required');
  t.is((await server.call('GET', image, { key: null, headers: { cookie } })).status, 401);
  t.is((await feedback(slug, cookie, { message_id: answerId, rating: 'up' })).status, 401);
  t.is((await ask(slug, 'And the power?', cookie)).body.error.code, 'access_code_required');

  const readmitted = await ask(slug, 'And the power?', cookie, { access_code: 'zephyr-2025' });
  t.is(readmitted.status, 200);
  const renewed = asCookie(lastCookie(readmitted)!);
  t.is((await history(slug, renewed)).body.messages.length, 4, 'their own conversation, once they gave the new code');
});

test('a knowledge base that left the agent takes its part of the conversation with it: withheld from history, its pages 404, no feedback', async (t) => {
  const { id, slug } = await published();
  const { cookie, answerId, image } = await visitorWithPage(slug);
  const empty = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'empty' } })).body.id as string;
  await republish(id, { knowledge_base_ids: [empty] });

  const after = await history(slug, cookie);
  t.is(after.status, 200);
  t.deepEqual(after.body.messages, [], 'the exchange that cited the knowledge base is gone, question and answer');
  const page = await server.call('GET', image, { key: null, headers: { cookie } });
  t.is(page.status, 404);
  t.is(page.body.error.code, 'page_not_found');
  t.is((await feedback(slug, cookie, { message_id: answerId, rating: 'down' })).status, 404);
  // Nor does the next question carry it to the model as earlier turns.
  const next = await ask(slug, 'What did you tell me about the blades?', cookie);
  t.is(next.status, 200);
  t.false(next.body.choices[0].message.content.includes('78 metres'));
});

test('a workflow-backed agent: when its workflow\'s published version stops reading a knowledge base, the exchanges citing it leave the visitor\'s conversation', async (t) => {
  const graphOver = (kbId: string) => ({
    nodes: [
      { id: 'start', type: 'start', config: { inputs: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'find', type: 'knowledge_retrieval', config: { knowledge_base_id: kbId, query: '{{start.question}}' } },
      { id: 'llm', type: 'llm', config: { model: 'kbqa-extractive', system: '{{find.context}}', prompt: '{{start.question}}' } },
      { id: 'answer', type: 'direct_reply', config: { template: '{{llm.text}}' } },
    ],
    edges: [
      { from: 'start', to: 'find' },
      { from: 'find', to: 'llm' },
      { from: 'llm', to: 'answer' },
    ],
  });
  const wf = await server.call('POST', '/v1/workflows', { json: { name: 'turbine qa', graph: graphOver(kb.kbId) } });
  t.is(wf.status, 201, JSON.stringify(wf.body));
  t.is((await server.call('POST', `/v1/workflows/${wf.body.id}/publish`)).status, 200);
  const { slug } = await published({ knowledge_base_ids: [], workflow_id: wf.body.id });
  const { cookie, answerId, image } = await visitorWithPage(slug);
  t.is((await history(slug, cookie)).body.messages.length, 2);
  t.is((await server.call('GET', image, { key: null, headers: { cookie } })).status, 200);

  const empty = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'empty' } })).body.id as string;
  const replaced = await server.call('PUT', `/v1/workflows/${wf.body.id}`, { json: { name: 'turbine qa', graph: graphOver(empty) } });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.deepEqual((await history(slug, cookie)).body.messages.length, 2, 'a draft changes nothing the visitor sees');
  t.is((await server.call('POST', `/v1/workflows/${wf.body.id}/publish`)).status, 200);

  t.deepEqual((await history(slug, cookie)).body.messages, [], 'the exchange is withheld, question and answer');
  t.is((await server.call('GET', image, { key: null, headers: { cookie } })).status, 404);
  t.is((await feedback(slug, cookie, { message_id: answerId, rating: 'down' })).status, 404);
});

test('feedback: the same rating again appends nothing; a visitor may rate only so often (429 with retry-after)', async (t) => {
  const { id, slug } = await published();
  const { cookie, answerId } = await visitorWithPage(slug);
  const visitorId = cookie.split('=')[1]!.split('.')[1]!;
  const events = async () => (await server.runtime.store.readStream(`agent_visitor-${id}-${visitorId}`)).map((e) => e.type);
  t.is((await feedback(slug, cookie, { message_id: answerId, rating: 'up', comment: 'clear' })).status, 204);
  t.is((await feedback(slug, cookie, { message_id: answerId, rating: 'up', comment: 'clear' })).status, 204);
  t.deepEqual(await events(), ['AgentVisitorExchanged', 'AgentVisitorFeedbackGiven'], 'identical feedback is no new event');
  t.is((await feedback(slug, cookie, { message_id: answerId, rating: 'down' })).status, 204);
  t.is((await events()).length, 3, 'a changed rating is recorded');

  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) statuses.push((await feedback(slug, cookie, { message_id: answerId, rating: i % 2 ? 'up' : 'down' })).status);
  t.true(statuses.includes(429), statuses.join());
  const refused = await feedback(slug, cookie, { message_id: answerId, rating: 'up' });
  t.is(refused.status, 429);
  t.like(refused.body, { error: { type: 'rate_limit_error', code: 'rate_limited' } });
  t.true(Number(refused.headers.get('retry-after')) >= 1);
});

test('a failed run of a workflow-backed agent: the visitor reads a generic message, the API keeps the detail', async (t) => {
  const graph = {
    nodes: [
      { id: 'start', type: 'start', config: { inputs: [{ name: 'question', type: 'string', required: true }] } },
      { id: 'lookup', type: 'code', config: { code: "function main() { throw new Error('GET http://10.20.30.40:9200/internal-index failed: password=hunter2-secret') }", inputs: {} } },
      { id: 'answer', type: 'direct_reply', config: { template: '{{lookup.result}}' } },
    ],
    edges: [
      { from: 'start', to: 'lookup' },
      { from: 'lookup', to: 'answer' },
    ],
  };
  const wf = await server.call('POST', '/v1/workflows', { json: { name: 'failing', graph } });
  t.is(wf.status, 201, JSON.stringify(wf.body));
  const { id, slug } = await published({ knowledge_base_ids: [], workflow_id: wf.body.id });

  const visitor = await ask(slug, 'Hello?');
  t.is(visitor.status, 502);
  t.is(visitor.body.error.code, 'agent_workflow_failed');
  const seen = JSON.stringify(visitor.body);
  for (const internal of ['hunter2', '10.20.30.40', 'internal-index', 'run_']) t.false(seen.includes(internal), internal);

  const streamed = await ask(slug, 'Hello?', undefined, { stream: true });
  for (const internal of ['hunter2', '10.20.30.40']) t.false(JSON.stringify(streamed.body).includes(internal), internal);

  const operator = await server.call('POST', '/v1/chat/completions', { json: { model: id, messages: [{ role: 'user', content: 'Hello?' }] } });
  t.is(operator.status, 502);
  t.true(operator.body.error.message.includes('hunter2-secret'), 'the key holder reads why');
});

test('the visitor cookie is SameSite=None; Secure; Partitioned where browsers keep Secure cookies (https, loopback), Lax on plain http elsewhere', async (t) => {
  const { slug } = await published();
  const cookieFor = async (headers: Record<string, string>) => (await server.call('GET', `/a/${slug}/history`, { key: null, headers })).headers.get('set-cookie')!;
  for (const headers of [{} as Record<string, string>, { 'x-forwarded-host': 'kbqa.example', 'x-forwarded-proto': 'https' }]) {
    const cookie = await cookieFor(headers);
    t.regex(cookie, /; HttpOnly; SameSite=None; Secure; Partitioned$/, JSON.stringify(headers));
    t.regex(cookie, new RegExp(`Path=/a/${slug};`));
  }
  const plain = await cookieFor({ 'x-forwarded-host': 'kbqa.example' });
  t.regex(plain, /SameSite=Lax$/);
  t.notRegex(plain, /Secure/);
});
