import test from 'ava';
import OpenAI from 'openai';
import { FACTS, sampleKnowledgeBase, type SampleKb } from '../helpers/knowledge-base.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let kb: SampleKb;
let client: OpenAI;

type Citation = { index: number; source: string; page: number; paragraph: string; document_id: string; chunk_id: string; score: number; heading_path: string[]; char_start: number; char_end: number; boxes: { x0: number; y0: number; x1: number; y1: number; start: number }[]; quote?: { text: string; start: number; end: number } | null };
type WithCitations = { citations: Citation[]; context: Citation[]; answerable?: boolean; coverage?: number };

test.before(async () => {
  server = await startServer({ KBQA_STORE_CHAT_CONTENT: 'on' });
  kb = await sampleKnowledgeBase(server);
  // The official client, unmodified: only the base URL and the key differ from OpenAI's.
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
});
test.after.always(() => server?.close());

const ask = (question: string, extra: Record<string, unknown> = {}) =>
  client.chat.completions.create({ model: 'kbqa-extractive', messages: [{ role: 'user', content: question }], knowledge_base_id: kb.kbId, ...extra } as never);

test('models.list shows the offline chat, embedding and rerank models', async (t) => {
  const ids = [];
  for await (const model of client.models.list()) ids.push(model.id);
  t.true(ids.includes('kbqa-extractive'));
  t.true(ids.includes('kbqa-hash-embed-512'));
  t.true(ids.some((id) => id.startsWith('kbqa-rerank')));
});

test('an answer grounded in the knowledge base cites its passages', async (t) => {
  const completion = (await ask('How long is each Zephyr-9 blade?')) as OpenAI.ChatCompletion & WithCitations;
  t.is(completion.object, 'chat.completion');
  t.is(completion.model, 'kbqa-extractive');
  const content = completion.choices[0]!.message.content!;
  t.true(content.includes('78 metres'), content);
  const markers = [...content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  t.true(markers.length > 0);
  const cited = completion.citations.find((c) => c.index === markers[0]);
  t.truthy(cited);
  t.is(cited!.source, 'zephyr-9.pdf');
  t.is(cited!.page, 2);
  t.is(cited!.document_id, kb.docs.turbine);
  t.true(cited!.paragraph.includes('78 metres'));
  t.truthy(cited!.chunk_id);
  t.true(cited!.score > 0 && cited!.score <= 1);
  t.is(completion.choices[0]!.finish_reason, 'stop');
  t.true(completion.usage!.prompt_tokens > 0 && completion.usage!.completion_tokens > 0);
  t.is(completion.usage!.total_tokens, completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
});

test('streaming: the context first, then deltas, the finish reason with the citations, usage, [DONE]', async (t) => {
  const stream = await client.chat.completions.create({
    model: 'kbqa-extractive',
    messages: [{ role: 'user', content: 'When did the Erebus lava lake become active?' }],
    knowledge_base_id: kb.kbId,
    stream: true,
    stream_options: { include_usage: true },
  } as never as OpenAI.ChatCompletionCreateParamsStreaming);
  const chunks: (OpenAI.ChatCompletionChunk & Partial<WithCitations>)[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  t.is(chunks[0]!.object, 'chat.completion.chunk');
  t.is(chunks[0]!.choices[0]!.delta.role, 'assistant');
  t.true(chunks[0]!.context!.length > 0);
  const finishing = chunks.findIndex((c) => c.choices[0]?.finish_reason);
  t.true(chunks.slice(1).every((c) => c.context === undefined), 'the context travels first');
  t.true(chunks.every((c, i) => c.citations === undefined || i === finishing), 'the citations with the finish reason');
  const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
  t.true(text.includes('1972'), text);
  const finish = chunks.find((c) => c.choices[0]?.finish_reason);
  t.is(finish?.choices[0]!.finish_reason, 'stop');
  const last = chunks.at(-1)!;
  t.deepEqual(last.choices, []);
  t.true(last.usage!.completion_tokens > 0);
  t.is(new Set(chunks.map((c) => c.id)).size, 1);
  // The same answer without streaming: retrieval is the same, so are the citations.
  const plain = (await ask('When did the Erebus lava lake become active?')) as OpenAI.ChatCompletion & WithCitations;
  t.is(plain.choices[0]!.message.content, text);
  t.deepEqual(plain.citations, chunks[finishing]!.citations, 'the same citations, quotes included');
  // The quote narrows what a citation points at (its span and lines); the rest is as retrieved.
  const unpointed = (cs: WithCitations['citations']) => cs.map(({ quote: _q, char_start: _s, char_end: _e, boxes: _b, ...c }) => c);
  t.deepEqual(unpointed(plain.citations), unpointed(chunks[0]!.context!.filter((c) => plain.citations.some((cited) => cited.index === c.index))));
  t.true(chunks[0]!.context!.every((c) => c.char_end - c.char_start === c.paragraph.length), 'a context passage points at its whole passage');
  const quoted = plain.citations.find((c) => c.quote)!;
  t.is(quoted.paragraph.slice(quoted.quote!.start, quoted.quote!.end), quoted.quote!.text);
  // char_start/char_end count in the page's text: the passage's start there plus the quote's offsets.
  const passageStart = chunks[0]!.context!.find((c) => c.chunk_id === quoted.chunk_id)!.char_start;
  t.deepEqual([quoted.char_start, quoted.char_end], [passageStart + quoted.quote!.start, passageStart + quoted.quote!.end]);
  t.true(text.includes(quoted.quote!.text.replace(/\.$/, '')), 'the quote is what the answer says');
  t.is(plain.answerable, true);
});

test('the retrieval question comes from the conversation, not just the last message', async (t) => {
  const completion = (await client.chat.completions.create({
    model: 'kbqa-extractive',
    knowledge_base_id: kb.kbId,
    messages: [
      { role: 'user', content: 'Tell me about the Zephyr-9 wind turbine.' },
      { role: 'assistant', content: 'It is a wind turbine.' },
      { role: 'user', content: 'How long are its blades?' },
    ],
  } as never)) as OpenAI.ChatCompletion & WithCitations;
  t.true(completion.choices[0]!.message.content!.includes('78 metres'));
  t.is(completion.citations[0]!.document_id, kb.docs.turbine);
});

test('nothing above the threshold: the answer says so and cites nothing', async (t) => {
  const { body: strict } = await server.call('POST', '/v1/knowledge-bases', { json: { name: 'strict', settings: { score_threshold: 0.95 } } });
  await server.call('POST', `/v1/knowledge-bases/${strict.id}/documents`, { json: { name: 'bread.txt', text: FACTS.bread } });
  const completion = (await client.chat.completions.create({
    model: 'kbqa-extractive',
    knowledge_base_id: strict.id,
    messages: [{ role: 'user', content: 'What is the population of Ulaanbaatar?' }],
  } as never)) as OpenAI.ChatCompletion & WithCitations;
  t.regex(completion.choices[0]!.message.content!, /does not cover/);
  t.deepEqual(completion.citations, []);
});

test('without a knowledge base it is a plain chat with no citations', async (t) => {
  const completion = (await client.chat.completions.create({ model: 'kbqa-extractive', messages: [{ role: 'user', content: 'Hello there' }] })) as OpenAI.ChatCompletion &
    WithCitations;
  t.true(completion.choices[0]!.message.content!.length > 0);
  t.deepEqual(completion.citations, []);
});

test('unknown model is 404 model_not_found; temperature outside 0..2 is 400', async (t) => {
  const notFound = await t.throwsAsync(client.chat.completions.create({ model: 'gpt-nonexistent', messages: [{ role: 'user', content: 'hi' }] }), {
    instanceOf: OpenAI.NotFoundError,
  });
  t.is((notFound as InstanceType<typeof OpenAI.NotFoundError>).code, 'model_not_found');
  t.is((notFound as InstanceType<typeof OpenAI.NotFoundError>).param, 'model');
  for (const temperature of [-0.1, 2.5]) {
    const bad = await t.throwsAsync(client.chat.completions.create({ model: 'kbqa-extractive', temperature, messages: [{ role: 'user', content: 'hi' }] }), {
      instanceOf: OpenAI.BadRequestError,
    });
    t.is((bad as InstanceType<typeof OpenAI.BadRequestError>).param, 'temperature');
  }
  const missingKb = await server.call('POST', '/v1/chat/completions', { json: { model: 'kbqa-extractive', knowledge_base_id: 'kb_nope', messages: [{ role: 'user', content: 'hi' }] } });
  t.is(missingKb.status, 404);
  t.is(missingKb.body.error.code, 'knowledge_base_not_found');
  const noUser = await server.call('POST', '/v1/chat/completions', { json: { model: 'kbqa-extractive', messages: [{ role: 'system', content: 'be brief' }] } });
  t.is(noUser.status, 400);
  t.is(noUser.body.error.param, 'messages');
});

test('/v1/chat, the quick-start form: id, content, citations with source, page, paragraph', async (t) => {
  const { status, body } = await server.call('POST', '/v1/chat', {
    json: { model: 'kbqa-extractive', knowledge_base_id: kb.kbId, messages: [{ role: 'user', content: 'What makes sourdough bread rise?' }] },
  });
  t.is(status, 200);
  t.regex(body.id, /^chatcmpl-/);
  t.true(body.content.includes('wild yeast'));
  t.is(body.citations[0].source, 'sourdough.txt');
  t.is(body.citations[0].page, 1);
  t.true(body.citations[0].paragraph.includes('wild yeast'));
});

test('each answered chat is recorded as ChatCompleted, content included when configured', async (t) => {
  const completion = (await ask('What makes sourdough bread rise?')) as OpenAI.ChatCompletion & WithCitations;
  const deadline = Date.now() + 5000;
  let event;
  while (!event && Date.now() < deadline) {
    event = (await server.runtime.store.readStream(`chat-${completion.id}`))[0];
    if (!event) await new Promise((r) => setTimeout(r, 20));
  }
  t.is(event?.type, 'ChatCompleted');
  const data = event!.data as Record<string, any>;
  t.is(data.model, 'kbqa-extractive');
  t.is(data.knowledge_base_id, kb.kbId);
  t.deepEqual(
    data.citations.map((c: Citation) => c.chunk_id),
    completion.context.map((c) => c.chunk_id),
    'the event records the retrieval context',
  );
  t.is(data.usage.total_tokens, completion.usage!.total_tokens);
  t.true(data.latency_ms.total >= data.latency_ms.retrieval);
  t.true(data.latency_ms.first_token >= data.latency_ms.retrieval && data.latency_ms.first_token <= data.latency_ms.total, JSON.stringify(data.latency_ms));
  t.is(data.answer, completion.choices[0]!.message.content);
  t.is(data.messages[0].content, 'What makes sourdough bread rise?');
});

test('without KBQA_STORE_CHAT_CONTENT the event carries no text', async (t) => {
  const quiet = await startServer();
  try {
    const c = new OpenAI({ baseURL: `${quiet.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
    const completion = await c.chat.completions.create({ model: 'kbqa-extractive', messages: [{ role: 'user', content: 'secret question' }] });
    const [event] = await quiet.runtime.store.readStream(`chat-${completion.id}`);
    const data = event!.data as Record<string, unknown>;
    t.false('messages' in data);
    t.false('answer' in data);
    t.is(data.model, 'kbqa-extractive');
  } finally {
    await quiet.close();
  }
});
