import test from 'ava';
import OpenAI from 'openai';
import { allProjections } from '../../src/capabilities/index.ts';
import { replayReadModels } from '../../src/app/replay.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// OpenAI's Conversations API through the official client, unmodified, and chat that continues a
// conversation kept by the server: the client sends only the new message.

let server: TestServer;
let client: OpenAI;
let kbId: string;

const ZEPHYR = 'The Zephyr-9 wind turbine produces 4.2 megawatts. Each Zephyr-9 blade is 78 metres long.';
const BOREAS = 'The Boreas-4 wind turbine produces 2.1 megawatts. Each Boreas-4 blade is 45 metres long.';

type Item = { id: string; role: string; content: { type: string; text: string; annotations?: { type: string; file_id: string; index: number }[] }[] };
type ChatBody = OpenAI.ChatCompletionCreateParamsNonStreaming & { knowledge_base_id: string; conversation: string };

test.before(async () => {
  server = await startServer();
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 });
  kbId = (await server.call('POST', '/v1/knowledge-bases', { json: { name: 'turbines' } })).body.id;
  for (const [name, text] of [['zephyr-9.md', ZEPHYR], ['boreas-4.md', BOREAS]]) {
    const doc = (await server.call('POST', `/v1/knowledge-bases/${kbId}/documents`, { json: { name, text } })).body.data[0];
    for (let status = doc.status; status !== 'ready'; await new Promise((r) => setTimeout(r, 20))) {
      status = (await server.call('GET', `/v1/knowledge-bases/${kbId}/documents/${doc.id}`)).body.status;
      if (status === 'failed') throw new Error(`${name} failed`);
    }
  }
});
test.after.always(() => server?.close());

const ask = (conversation: string, content: string) =>
  client.chat.completions.create({ model: 'kbqa-extractive', knowledge_base_id: kbId, conversation, messages: [{ role: 'user', content }] } as ChatBody);
const items = async (conversation: string) => (await client.conversations.items.list(conversation, { order: 'asc', limit: 100 })).data as unknown as Item[];
const textOf = (item: Item) => item.content.map((c) => c.text).join('');

// Conversations and their items without a chat (create, read, update, delete) and the 404s of an unknown one:
// conversations-crud.http.test.ts, on the spec helper.

test('chat with a conversation: the follow-up reads with its history, and both turns become items', async (t) => {
  const zephyr = await client.conversations.create();
  await ask(zephyr.id, 'Tell me about the Zephyr-9 wind turbine.');
  const followUp = await ask(zephyr.id, 'How long are its blades?');
  t.regex(followUp.choices[0]!.message.content!, /78 metres/);
  // The same follow-up after another turbine: only the history tells them apart.
  const boreas = await client.conversations.create();
  await ask(boreas.id, 'Tell me about the Boreas-4 wind turbine.');
  t.regex((await ask(boreas.id, 'How long are its blades?')).choices[0]!.message.content!, /45 metres/);

  const listed = await items(zephyr.id);
  t.deepEqual(listed.map((i) => i.role), ['user', 'assistant', 'user', 'assistant']);
  t.is(textOf(listed[2]!), 'How long are its blades?');
  t.is(textOf(listed[3]!), followUp.choices[0]!.message.content!);
  const [annotation] = listed[3]!.content[0]!.annotations!;
  t.is(annotation?.type, 'file_citation');
  t.true(followUp.choices[0]!.message.content!.includes(`[${annotation!.index}]`));
});

test('a streamed chat with a conversation appends its turn once the stream is over', async (t) => {
  const conv = await client.conversations.create();
  await ask(conv.id, 'Tell me about the Zephyr-9 wind turbine.');
  const stream = await client.chat.completions.create({
    model: 'kbqa-extractive',
    knowledge_base_id: kbId,
    conversation: conv.id,
    stream: true,
    messages: [{ role: 'user', content: 'How long are its blades?' }],
  } as OpenAI.ChatCompletionCreateParamsStreaming);
  let answer = '';
  for await (const chunk of stream) answer += chunk.choices[0]?.delta.content ?? '';
  t.regex(answer, /78 metres/);
  let listed: Item[] = [];
  for (const until = Date.now() + 5000; listed.length < 4 && Date.now() < until; await new Promise((r) => setTimeout(r, 20))) listed = await items(conv.id);
  t.deepEqual(listed.map(textOf).slice(2), ['How long are its blades?', answer]);
});

test('a chat that sends a long history along with a conversation appends all of it, in order', async (t) => {
  const conv = await client.conversations.create();
  const earlier = Array.from({ length: 30 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `turn ${i}` }));
  await client.chat.completions.create({ model: 'kbqa-extractive', conversation: conv.id, messages: [...earlier, { role: 'user', content: 'And now?' }] } as never);
  const listed = await items(conv.id);
  t.is(listed.length, 32);
  t.deepEqual(listed.slice(0, 31).map(textOf), [...earlier.map((m) => m.content), 'And now?']);
  t.is(listed[31]!.role, 'assistant');
});

test('feedback on a chat completion and on a conversation’s answer is recorded on the chat’s stream', async (t) => {
  const conv = await client.conversations.create();
  const completion = await ask(conv.id, 'How long is each Zephyr-9 blade?');
  const given = await server.call('POST', `/v1/chat/completions/${completion.id}/feedback`, { json: { rating: 'down', comment: 'Too short an answer.' } });
  t.is(given.status, 201);
  t.like(given.body, { object: 'chat.completion.feedback', chat_completion_id: completion.id, rating: 'down', comment: 'Too short an answer.' });
  const [, answer] = await items(conv.id);
  const onItem = await server.call('POST', `/v1/conversations/${conv.id}/items/${answer!.id}/feedback`, { json: { rating: 'up' } });
  t.is(onItem.status, 201);
  const events = await server.runtime.store.readStream(`chat-${completion.id}`);
  t.deepEqual(
    events.filter((e) => e.type === 'ChatFeedbackGiven').map((e) => e.data),
    [
      { feedback_id: given.body.id, chat_id: completion.id, workspace_id: (events[0]!.data as { workspace_id: string }).workspace_id, api_key_id: (events[0]!.data as { api_key_id: string }).api_key_id, rating: 'down', comment: 'Too short an answer.', given_at: (events[1]!.data as { given_at: string }).given_at },
      { ...(events[2]!.data as object), rating: 'up', comment: null, conversation_id: conv.id, item_id: answer!.id },
    ],
  );

  const unknown = await server.call('POST', '/v1/chat/completions/chatcmpl-nothere/feedback', { json: { rating: 'up' } });
  t.is(unknown.status, 404);
  t.is(unknown.body.error.code, 'chat_completion_not_found');
  t.is((await server.call('POST', `/v1/chat/completions/${completion.id}/feedback`, { json: { rating: 'meh' } })).status, 400);
  t.is((await server.call('POST', `/v1/chat/completions/${completion.id}/feedback`, { json: { rating: 'up', comment: 'x'.repeat(2001) } })).status, 400);
  const clientItem = (await client.conversations.items.create(conv.id, { items: [{ type: 'message', role: 'user', content: 'A note' }] })).data[0]!;
  const notAChat = await server.call('POST', `/v1/conversations/${conv.id}/items/${clientItem.id}/feedback`, { json: { rating: 'up' } });
  t.is(notAChat.status, 400);
  t.is(notAChat.body.error.code, 'item_not_from_chat');
});

test('replay rebuilds the conversations and their items exactly', async (t) => {
  // A server of its own: replay stops the projector the other tests wait on.
  const own = await startServer();
  try {
    const { call, runtime } = own;
    const conv = (await call('POST', '/v1/conversations', { json: { metadata: { replay: 'yes' }, items: [{ role: 'user', content: 'Hello' }] } })).body;
    await call('POST', '/v1/chat/completions', { json: { model: 'kbqa-extractive', conversation: conv.id, messages: [{ role: 'user', content: 'And again' }] } });
    const [first] = (await call('GET', `/v1/conversations/${conv.id}/items?order=asc`)).body.data;
    await call('DELETE', `/v1/conversations/${conv.id}/items/${first.id}`);
    await call('POST', `/v1/conversations/${conv.id}`, { json: { metadata: { replay: 'twice' } } });
    const gone = (await call('POST', '/v1/conversations', { json: { items: [{ role: 'user', content: 'Bye' }] } })).body;
    await call('DELETE', `/v1/conversations/${gone.id}`);
    const dump = async () => ({
      conversations: await runtime.readModels.find('conversations', { order: 'asc' }),
      items: await runtime.readModels.find('conversation_items', { order: 'asc' }),
    });
    const live = await dump();
    t.is(live.conversations.length, 1);
    t.is(live.items.length, 2);
    await runtime.groups.get('projector')!.stop();
    await replayReadModels({ store: runtime.store, readModels: runtime.readModels, checkpoints: runtime.checkpoints, projections: allProjections, pageSize: 3 });
    t.deepEqual(await dump(), live);
  } finally {
    await own.close();
  }
});
