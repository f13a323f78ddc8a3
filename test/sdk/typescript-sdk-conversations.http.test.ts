import test from 'ava';
import { Kbqa, NotFoundError } from '../../sdk/typescript/src/index.ts';
import { FACTS } from '../helpers/knowledge-base.ts';
import { ADMIN_KEY, startServer, type TestServer } from '../helpers/server.ts';

// The TypeScript SDK's conversations, chat continuing one, and feedback, against the real app.

let server: TestServer;
let kbqa: Kbqa;

test.before(async () => {
  server = await startServer();
  kbqa = new Kbqa({ baseUrl: server.url, apiKey: ADMIN_KEY });
});
test.after.always(() => server?.close());

test('conversations: create, chat with only the new message, list the turns, rate the answer, delete', async (t) => {
  const kb = await kbqa.knowledgeBases.create({ name: 'turbines' });
  await kbqa.documents.uploadText(kb.id, { name: 'zephyr.md', text: `${FACTS.turbine} ${FACTS.blades}` }, { wait: true });

  const conv = await kbqa.conversations.create({ metadata: { user: 'ada' } });
  t.deepEqual(await kbqa.conversations.get(conv.id), conv);
  t.deepEqual((await kbqa.conversations.update(conv.id, { user: 'grace' })).metadata, { user: 'grace' });
  await kbqa.chat.create({ knowledgeBaseId: kb.id, conversation: conv.id, messages: [{ role: 'user', content: 'Tell me about the Zephyr-9 wind turbine.' }] });
  const answer = await kbqa.query(kb.id, 'How long are its blades?', { conversation: conv.id });
  t.regex(answer.answer, /78 metres/);
  let streamed = '';
  for await (const chunk of kbqa.chat.stream({ knowledgeBaseId: kb.id, conversation: conv.id, messages: [{ role: 'user', content: 'What do they weigh?' }] })) streamed += chunk.content;

  let items = (await kbqa.conversations.items.list(conv.id, { order: 'asc', limit: 100 })).data;
  for (const until = Date.now() + 5000; items.length < 6 && Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
    items = (await kbqa.conversations.items.list(conv.id, { order: 'asc', limit: 100 })).data;
  }
  t.deepEqual(items.map((i) => i.role), ['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  t.is(items[3]!.content[0]!.text, answer.answer);
  t.is(items[5]!.content[0]!.text, streamed);

  const rated = await kbqa.chat.feedback(answer.id, { rating: 'up', comment: 'Exactly what I needed.' });
  t.like(rated, { object: 'chat.completion.feedback', chat_completion_id: answer.id, rating: 'up', comment: 'Exactly what I needed.' });
  t.like(await kbqa.conversations.items.feedback(conv.id, items[3]!.id, { rating: 'down' }), { chat_completion_id: answer.id, item_id: items[3]!.id });

  const [note] = (await kbqa.conversations.items.create(conv.id, [{ role: 'user', content: 'A note to self.' }])).data;
  t.is((await kbqa.conversations.items.get(conv.id, note!.id)).content[0]!.text, 'A note to self.');
  t.is((await kbqa.conversations.items.delete(conv.id, note!.id)).id, conv.id);
  t.deepEqual(await kbqa.conversations.delete(conv.id), { id: conv.id, object: 'conversation.deleted', deleted: true });
  await t.throwsAsync(kbqa.conversations.get(conv.id), { instanceOf: NotFoundError });
  await t.throwsAsync(kbqa.chat.feedback('chatcmpl-missing', { rating: 'up' }), { instanceOf: NotFoundError });
});
