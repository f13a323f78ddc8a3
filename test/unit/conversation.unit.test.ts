import test from 'ava';
import { type ConversationCommand, conversationDecider, type ConversationEvent } from '../../src/domain/conversation/conversation.ts';
import { batchItems } from '../../src/domain/conversation/batches.ts';
import { at, deciderSpec } from '../helpers/decider-spec.ts';

const spec = deciderSpec(conversationDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:05.000Z';
const target = { conversation_id: 'conv_1', workspace_id: 'w' };
const item = (id: string, role: 'user' | 'assistant', text: string) => ({
  type: 'message' as const,
  id,
  role,
  status: 'completed' as const,
  content: [{ type: role === 'user' ? ('input_text' as const) : ('output_text' as const), text }],
});
const hello = item('msg_1', 'user', 'Hello');
const created: ConversationEvent = { type: 'ConversationCreated', data: { conversation_id: 'conv_1', workspace_id: 'w', metadata: {}, created_at: T0 } };
const helloAdded: ConversationEvent = { type: 'ConversationItemsAdded', data: { conversation_id: 'conv_1', items: [hello], added_at: T0 } };
const cmd = (command: Omit<ConversationCommand, 'metadata'>) => ({ ...command, metadata: at(T1) }) as ConversationCommand;

test('created with first items: one event for the conversation, one for its items', (t) => {
  spec(t).given().when({ type: 'CreateConversation', data: { ...target, metadata: {}, items: [hello] }, metadata: at(T0) }).then([created, helloAdded]);
  spec(t).given().when({ type: 'CreateConversation', data: { ...target, metadata: {}, items: [] }, metadata: at(T0) }).then([created]);
});

test('a chat appends its turn with its id and the knowledge bases it searched', (t) => {
  const turn = [item('msg_2', 'user', 'How long?'), item('msg_3', 'assistant', '78 metres [1].')];
  spec(t)
    .given(created)
    .when(cmd({ type: 'AddItems', data: { ...target, items: turn, chat_id: 'chatcmpl-1', knowledge_base_ids: ['kb_1'] } }))
    .then([{ type: 'ConversationItemsAdded', data: { conversation_id: 'conv_1', items: turn, chat_id: 'chatcmpl-1', knowledge_base_ids: ['kb_1'], added_at: T1 } }]);
});

test('an item is deleted once; the conversation’s deletion names the items still in it', (t) => {
  const deleted: ConversationEvent = { type: 'ConversationItemDeleted', data: { conversation_id: 'conv_1', item_id: 'msg_1', deleted_at: T1 } };
  spec(t).given(created, helloAdded).when(cmd({ type: 'DeleteItem', data: { ...target, item_id: 'msg_1' } })).then([deleted]);
  spec(t).given(created, helloAdded, deleted).when(cmd({ type: 'DeleteItem', data: { ...target, item_id: 'msg_1' } })).thenThrows('not_found', 'item_not_found');
  spec(t)
    .given(created, helloAdded)
    .when(cmd({ type: 'DeleteConversation', data: target }))
    .then([{ type: 'ConversationDeleted', data: { conversation_id: 'conv_1', item_ids: ['msg_1'], deleted_at: T1 } }]);
  spec(t).given(created, helloAdded, deleted).when(cmd({ type: 'DeleteConversation', data: target })).then([{ type: 'ConversationDeleted', data: { conversation_id: 'conv_1', item_ids: [], deleted_at: T1 } }]);
});

test('another workspace’s, a deleted or a missing conversation is not there', (t) => {
  const gone: ConversationEvent = { type: 'ConversationDeleted', data: { conversation_id: 'conv_1', item_ids: [], deleted_at: T1 } };
  spec(t).given(created).when(cmd({ type: 'AddItems', data: { ...target, workspace_id: 'other', items: [hello] } })).thenThrows('not_found', 'conversation_not_found');
  spec(t).given(created, gone).when(cmd({ type: 'UpdateConversation', data: { ...target, metadata: { a: 'b' } } })).thenThrows('not_found', 'conversation_not_found');
  spec(t).given().when(cmd({ type: 'DeleteConversation', data: target })).thenThrows('not_found', 'conversation_not_found');
  spec(t).given(created).when(cmd({ type: 'CreateConversation', data: { ...target, metadata: {}, items: [] } })).thenThrows('conflict', 'conversation_exists');
});

test('items travel in events of at most 20, each under the byte budget, in order', (t) => {
  const items = Array.from({ length: 45 }, (_, i) => item(`msg_${i}`, 'user', `question ${i}`));
  t.deepEqual(batchItems(items).map((b) => b.length), [20, 20, 5]);
  t.deepEqual(batchItems(items).flat(), items);
  const big = Array.from({ length: 3 }, (_, i) => item(`msg_${i}`, 'user', 'x'.repeat(1000)));
  t.deepEqual(batchItems(big, 2500).map((b) => b.length), [2, 1]);
});
