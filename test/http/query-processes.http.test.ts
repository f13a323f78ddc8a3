import test from 'ava';
import { FACTS, sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { settledDocument } from '../helpers/documents.ts';
import { childrenRunning } from '../helpers/process.ts';
import { startProviderServer, LOOPBACK_PROVIDERS } from '../helpers/provider-servers.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// Query processes answer retrievals when the main process is busy: every answer must be the one
// the main process gives, whichever process gave it, and follow what was written since.
let server: TestServer;
let kb: SampleKb;

test.before(async () => {
  server = await startServer({ KBQA_QUERY_PROCESSES: '1', ...LOOPBACK_PROVIDERS });
  kb = await sampleKnowledgeBase(server);
});
test.after.always(() => server?.close());

const QUESTIONS = ['How long is a Zephyr-9 blade?', 'Where is Mount Erebus?', 'Why does sourdough rise?', 'active lava lake', 'flour and water'];
const search = (query: string, extra: Record<string, unknown> = {}) =>
  server.call('POST', `/v1/knowledge-bases/${kb.kbId}/search`, { json: { query, top_k: 5, ...extra } });
const chat = (content: string) =>
  server.call('POST', '/v1/chat/completions', { json: { model: 'kbqa-extractive', knowledge_base_id: kb.kbId, messages: [{ role: 'user', content }] } });

/** A streamed chat's answer: its deltas joined, and the citations sent with the finish reason. */
async function streamedChat(content: string) {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'kbqa-extractive', knowledge_base_id: kb.kbId, stream: true, messages: [{ role: 'user', content }] }),
  });
  const chunks = (await res.text()).split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice('data: '.length)));
  const finishing = chunks.find((c) => c.choices[0]?.finish_reason);
  return { content: chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), citations: finishing?.citations };
}

const queryProcesses = () => childrenRunning('query-process.mjs').length;

/** Retrievals answered so far, by where, from /metrics. */
async function answered(): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Object.fromEntries([...text.matchAll(/^kbqa_retrievals_total\{where="(\w+)"\} (\d+)/gm)].map((m) => [m[1]!, Number(m[2])]));
}

/** Many at once, so that the main process is busy and most go to the query process. */
async function concurrently<T>(rounds: number, call: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: rounds }, (_, i) => call(i)));
}

test.serial('searches and chats answered in a query process are the answers the main process gives', async (t) => {
  const alone: { search: unknown; chat: { content: string }; citations: unknown }[] = [];
  for (const q of QUESTIONS) {
    const { body } = await chat(q);
    alone.push({ search: (await search(q)).body, chat: body.choices[0].message, citations: body.citations });
  }
  // The first burst starts the query process (about 2 s); the main process answers meanwhile.
  for (let burst = 0; burst < 50 && ((await answered()).query_process ?? 0) === 0; burst++) await concurrently(8, (i) => search(QUESTIONS[i % 5]!));
  const before = await answered();
  const together = await concurrently(QUESTIONS.length * 8, async (i) => {
    const q = QUESTIONS[i % QUESTIONS.length]!;
    const { body } = await chat(q);
    return { i, search: (await search(q)).body, chat: body.choices[0].message, citations: body.citations, streamed: await streamedChat(q) };
  });
  if (process.platform === 'linux') t.is(queryProcesses(), 1, 'a query process started');
  const after = await answered();
  t.true(after.query_process! - before.query_process! >= 10, JSON.stringify({ before, after }));
  t.is(after.main_after_query_process, 0, 'none failed in the query process');
  const beforeChats = await answered();
  const chats = await concurrently(QUESTIONS.length * 8, (i) => chat(QUESTIONS[i % QUESTIONS.length]!));
  t.true((await answered()).query_process! > beforeChats.query_process!, 'chats too are grounded in the query process');
  chats.forEach(({ body }, i) => t.deepEqual(body.choices[0].message, alone[i % QUESTIONS.length]!.chat));
  // A chat's answer is worked out where its retrieval ran; quotes and streamed deltas are the same.
  for (const { i, search: s, chat: c, citations, streamed } of together) {
    const expected = alone[i % QUESTIONS.length]!;
    t.deepEqual(s, expected.search);
    t.deepEqual(c, expected.chat);
    t.deepEqual(citations, expected.citations);
    t.deepEqual(streamed, { content: expected.chat.content, citations: expected.citations });
  }
});

test.serial('a document written since is found, with a metadata filter, wherever the search runs', async (t) => {
  const { body } = await server.call('POST', `/v1/knowledge-bases/${kb.kbId}/documents`, {
    json: { name: 'geyser.txt', text: 'Strokkur is a fountain geyser in Iceland that erupts every few minutes.', metadata: { topic: 'geology' } },
  });
  const id = body.data[0].id as string;
  for (let waited = 0; waited < 30_000; waited += 100) {
    const doc = await server.call('GET', `/v1/knowledge-bases/${kb.kbId}/documents/${id}`);
    if (doc.body.status === 'ready') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const found = await concurrently(16, () => search('Strokkur geyser Iceland', { filter: { metadata: { topic: 'geology' } } }));
  for (const res of found) t.is(res.body.data[0]?.document_id, id);
  const still = await concurrently(8, () => search(FACTS.blades));
  for (const res of still) t.is(res.body.data[0]?.document_id, kb.docs.turbine);
  t.is((await answered()).main_after_query_process, 0);
});

test.serial('a knowledge base on a workspace provider’s embedding and rerank models is searched alike in a query process', async (t) => {
  const provider = await startProviderServer({ dimensions: 6 });
  try {
    const models = [{ id: 'e', type: 'embedding', dimensions: 6 }, { id: 'r', type: 'rerank' }];
    t.is((await server.call('POST', '/v1/model-providers', { json: { name: 'qp', base_url: provider.baseUrl, api_key: 'sk-qp', models } })).status, 201);
    const own = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'qp', settings: { embedding_model: 'qp/e', rerank: { enabled: true, model: 'qp/r' } } } })).body;
    const up = await server.call('POST', `/v1/knowledge-bases/${own.id}/documents`, { json: { name: 'q.md', text: FACTS.blades } });
    t.is((await settledDocument(server, own.id, up.body.data[0].id)).status, 'ready');
    const ask = () => server.call('POST', `/v1/knowledge-bases/${own.id}/search`, { json: { query: 'Zephyr-9 blade', top_k: 3 } });
    const alone = (await ask()).body.data;
    const before = await answered();
    let answers: { status: number; body: { data: unknown } }[] = [];
    for (let burst = 0; burst < 50 && ((await answered()).query_process ?? 0) === (before.query_process ?? 0); burst++) answers = await concurrently(8, ask);
    const after = await answered();
    t.true((after.query_process ?? 0) > (before.query_process ?? 0), JSON.stringify({ before, after }));
    t.is(after.main_after_query_process ?? 0, before.main_after_query_process ?? 0, 'none failed in the query process');
    for (const answer of answers) t.deepEqual(answer.body.data, alone);
    t.true(provider.requests.some((r) => r.url === '/v1/rerank' && r.authorization === 'Bearer sk-qp'));
  } finally {
    await provider.close();
  }
});
