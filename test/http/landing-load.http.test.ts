import test from 'ava';
import { startChatServer, type ChatServer } from '../helpers/provider-servers.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

// Anonymous landing-page chats have a load class of their own, bounded per agent (issue 42 item 5):
// slow public chats cannot take the slots another workspace's search and chat need.

const STALL_MS = 2500;
let server: TestServer;
let slow: ChatServer;

test.before(async () => {
  slow = await startChatServer({ stallMs: STALL_MS });
  server = await startServer({
    KBQA_RATE_LIMIT_PER_MINUTE: '0',
    KBQA_LANDING_MESSAGES_PER_MINUTE: '0',
    KBQA_QUERY_CONCURRENCY: '2',
    KBQA_QUERY_QUEUE: '2',
    KBQA_LANDING_CONCURRENCY: '4',
    KBQA_LANDING_QUEUE: '4',
    KBQA_LANDING_AGENT_CONCURRENCY: '3',
    KBQA_QUEUE_WAIT_MS: '500',
    KBQA_OPENAI_MAX_RETRIES: '0',
    // Model providers' base URLs follow the HTTP node's address policy (issue 42 item 21): loopback is allowed here.
    KBQA_WORKFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1',
  });
});
test.after.always(async () => {
  await server?.close();
  await slow?.close();
});

async function slowAgent(name: string) {
  const created = await server.call('POST', '/v1/agents', { json: { name, model: 'slow/loop-chat' } });
  if (created.status !== 201) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
  return ((await server.call('POST', `/v1/agents/${created.body.id}/publish`)).body.public_url as string).slice('/a/'.length);
}

test('slow anonymous chats fill their own class, per agent: another workspace’s search and chat still answer, another agent still talks', async (t) => {
  const provider = await server.call('POST', '/v1/model-providers', { json: { name: 'slow', base_url: slow.baseUrl, api_key: 'sk-loopback-slow', models: [{ id: 'loop-chat', type: 'chat' }] } });
  t.is(provider.status, 201, JSON.stringify(provider.body));
  const [busy, quiet] = [await slowAgent('Busy'), await slowAgent('Quiet')];
  const kb = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'theirs' } })).body.id as string;

  const ask = (slug: string) => server.call('POST', `/a/${slug}/chat`, { key: null, json: { messages: [{ role: 'user', content: 'Hello' }] } });
  const flood = Array.from({ length: 8 }, () => ask(busy));
  for (const pending of flood) pending.catch(() => {});
  await slow.untilRequests(2);
  const search = await server.call('POST', `/v1/knowledge-bases/${kb}/search`, { json: { query: 'anything' } });
  t.is(search.status, 200, JSON.stringify(search.body));
  const chat = await server.call('POST', '/v1/chat/completions', { json: { model: 'kbqa-extractive', messages: [{ role: 'user', content: 'Hello' }] } });
  t.is(chat.status, 200, JSON.stringify(chat.body));
  const other = ask(quiet);

  const answers = await Promise.all(flood);
  const statuses = answers.map((r) => r.status).sort();
  t.deepEqual(statuses, [200, 200, 200, 503, 503, 503, 503, 503], 'one agent holds at most 3 places; the rest are turned away at once');
  t.like(answers.find((r) => r.status === 503)!.body, { error: { type: 'server_error', code: 'server_overloaded' } });
  t.truthy(answers.find((r) => r.status === 503)!.headers.get('retry-after'));
  t.is((await other).status, 200, 'another agent still had room');
});
