import test, { type ExecutionContext } from 'ava';
import OpenAI from 'openai';
import { ADMIN_KEY } from '../helpers/admin-key.ts';
import { httpSpec } from '../helpers/http-spec.ts';

// OpenAI's Conversations API through the official client, unmodified: conversations and their
// items kept by the server, no chat (conversations.http.test.ts chats with documents, which needs
// the workers). Each test has an app of its own over in-memory ports.

type Item = { id: string; role: string; content: { type: string; text: string }[] };

const openApp = async (t: ExecutionContext) => {
  const server = await httpSpec(t).app();
  return { server, client: new OpenAI({ baseURL: `${server.url}/v1`, apiKey: ADMIN_KEY, maxRetries: 0 }) };
};
const items = async (client: OpenAI, conversation: string) => (await client.conversations.items.list(conversation, { order: 'asc', limit: 100 })).data as unknown as Item[];
const textOf = (item: Item) => item.content.map((c) => c.text).join('');

test('create, retrieve, update and delete a conversation; add, list, retrieve and delete its items', async (t) => {
  const { server, client } = await openApp(t);
  const conv = await client.conversations.create({ metadata: { topic: 'demo' }, items: [{ type: 'message', role: 'user', content: 'Hello' }] });
  t.regex(conv.id, /^conv_/);
  t.is(conv.object, 'conversation');
  t.deepEqual(conv.metadata, { topic: 'demo' });
  t.is(typeof conv.created_at, 'number');
  t.deepEqual(await client.conversations.retrieve(conv.id), conv);
  t.deepEqual((await client.conversations.update(conv.id, { metadata: { topic: 'changed' } })).metadata, { topic: 'changed' });

  const added = await client.conversations.items.create(conv.id, {
    items: [
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi! How can I help?' } as never] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Nothing, thanks.' }] },
    ],
  });
  t.is(added.data.length, 2);
  const all = await items(client, conv.id);
  t.deepEqual(all.map((i) => [i.role, i.content[0]!.type, textOf(i)]), [
    ['user', 'input_text', 'Hello'],
    ['assistant', 'output_text', 'Hi! How can I help?'],
    ['user', 'input_text', 'Nothing, thanks.'],
  ]);
  t.deepEqual(all.slice(1).map((i) => i.id), added.data.map((i) => i.id));

  // Cursor paging, newest first by default, as OpenAI lists items.
  const page = await client.conversations.items.list(conv.id, { limit: 2 });
  t.deepEqual(page.data.map((i) => i.id), [all[2]!.id, all[1]!.id]);
  t.true(page.has_more);
  const rest = await client.conversations.items.list(conv.id, { limit: 2, after: all[1]!.id });
  t.deepEqual(rest.data.map((i) => i.id), [all[0]!.id]);
  t.false(rest.has_more);

  t.deepEqual(await client.conversations.items.retrieve(all[1]!.id, { conversation_id: conv.id }), all[1] as never);
  const afterDelete = await client.conversations.items.delete(all[1]!.id, { conversation_id: conv.id });
  t.is(afterDelete.id, conv.id);
  t.deepEqual((await items(client, conv.id)).map((i) => i.id), [all[0]!.id, all[2]!.id]);
  await t.throwsAsync(client.conversations.items.retrieve(all[1]!.id, { conversation_id: conv.id }), { instanceOf: OpenAI.NotFoundError });

  t.deepEqual(await client.conversations.delete(conv.id), { id: conv.id, object: 'conversation.deleted', deleted: true });
  const gone = await t.throwsAsync(client.conversations.retrieve(conv.id), { instanceOf: OpenAI.NotFoundError });
  t.is((gone as InstanceType<typeof OpenAI.NotFoundError>).code, 'conversation_not_found');
  t.is(await server.ctx.readModels.count('conversation_items', { conversation_id: conv.id }), 0, 'the items go with their conversation');
});

test('an unknown or foreign conversation is a 404 on chat, in the API’s error shape', async (t) => {
  const { server, client } = await openApp(t);
  const missing = await server.call('POST', '/v1/chat/completions', {
    json: { model: 'kbqa-extractive', conversation: 'conv_nothere', messages: [{ role: 'user', content: 'hi' }] },
  });
  t.is(missing.status, 404);
  t.is(missing.body.error.code, 'conversation_not_found');
  const conv = await client.conversations.create();
  await client.conversations.delete(conv.id);
  const quick = await server.call('POST', '/v1/chat', { json: { model: 'kbqa-extractive', conversation: { id: conv.id }, messages: [{ role: 'user', content: 'hi' }] } });
  t.is(quick.status, 404);
});

// Told as given events → a request → the response and the events it appended.

const NOW = '2026-03-01T12:00:00.000Z';
const conversationCreated = (id: string) => ({ type: 'ConversationCreated' as const, data: { conversation_id: id, workspace_id: 'default', metadata: {}, created_at: NOW } });
const message = (id: string, text: string) => ({ type: 'message' as const, id, role: 'user' as const, status: 'completed' as const, content: [{ type: 'input_text' as const, text }] });

test('given a conversation with two items, deleting one appends ConversationItemDeleted and the other stays', async (t) => {
  const spec = httpSpec(t, { now: NOW });
  await spec
    .given(conversationCreated('conv_a'), { type: 'ConversationItemsAdded', data: { conversation_id: 'conv_a', items: [message('msg_1', 'Hello'), message('msg_2', 'Again')], added_at: NOW } })
    .when({ method: 'DELETE', path: '/v1/conversations/conv_a/items/msg_1' })
    .then({ status: 200, bodyMatches: { id: 'conv_a', object: 'conversation' }, events: [{ type: 'ConversationItemDeleted', data: { conversation_id: 'conv_a', item_id: 'msg_1', deleted_at: NOW } }] });
  const { body } = await spec.when({ method: 'GET', path: '/v1/conversations/conv_a/items' }).then({ status: 200, events: [] });
  t.deepEqual(body.data.map((i: Item) => i.id), ['msg_2']);
});

test('given a conversation with an item, deleting it appends ConversationDeleted naming the item', async (t) => {
  await httpSpec(t, { now: NOW })
    .given(conversationCreated('conv_b'), { type: 'ConversationItemsAdded', data: { conversation_id: 'conv_b', items: [message('msg_1', 'Hello')], added_at: NOW } })
    .when({ method: 'DELETE', path: '/v1/conversations/conv_b' })
    .then({
      status: 200,
      body: { id: 'conv_b', object: 'conversation.deleted', deleted: true },
      events: [{ type: 'ConversationDeleted', data: { conversation_id: 'conv_b', item_ids: ['msg_1'], deleted_at: NOW } }],
    });
});
