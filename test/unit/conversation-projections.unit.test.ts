import test from 'ava';
import { allProjections } from '../../src/capabilities/index.ts';
import { projectionSpec } from '../helpers/projection-spec.ts';

const spec = projectionSpec(allProjections);
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const streamId = 'conversation-conv_1';
const message = (id: string, role: 'user' | 'assistant', text: string) => ({
  type: 'message',
  id,
  role,
  status: 'completed',
  content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
});
const created = { type: 'ConversationCreated', streamId, data: { conversation_id: 'conv_1', workspace_id: 'w', metadata: { a: 'b' }, created_at: T0 } };
const clientItem = { type: 'ConversationItemsAdded', streamId, data: { conversation_id: 'conv_1', items: [message('msg_1', 'user', 'Hello')], added_at: T0 } };
const chatTurn = {
  type: 'ConversationItemsAdded',
  streamId,
  data: { conversation_id: 'conv_1', items: [message('msg_2', 'user', 'How long?'), message('msg_3', 'assistant', '78 metres.')], chat_id: 'chatcmpl-1', knowledge_base_ids: ['kb_1'], added_at: T1 },
};

test('conversation: its chats’ knowledge bases and metadata, one document per item', async (t) => {
  const updated = { type: 'ConversationUpdated', streamId, data: { conversation_id: 'conv_1', metadata: { a: 'c' }, updated_at: T1 } };
  await spec(t)
    .given(created, clientItem, chatTurn, updated)
    .then('conversations', {
      conv_1: {
        id: 'conv_1',
        object: 'conversation',
        workspace_id: 'w',
        metadata: { a: 'c' },
        knowledge_base_ids: ['kb_1'],
        item_ids: ['msg_1', 'msg_2', 'msg_3'],
        created_at: T0,
        updated_at: T1,
      },
    });
  await spec(t)
    .given(created, clientItem, chatTurn)
    .then('conversation_items', {
      msg_1: { id: 'msg_1', conversation_id: 'conv_1', chat_id: null, item: message('msg_1', 'user', 'Hello') },
      msg_2: { id: 'msg_2', conversation_id: 'conv_1', chat_id: 'chatcmpl-1', item: message('msg_2', 'user', 'How long?') },
      msg_3: { id: 'msg_3', conversation_id: 'conv_1', chat_id: 'chatcmpl-1', item: message('msg_3', 'assistant', '78 metres.') },
    });
});

test('conversation: a deleted item goes; a deleted conversation takes its items with it', async (t) => {
  const itemDeleted = { type: 'ConversationItemDeleted', streamId, data: { conversation_id: 'conv_1', item_id: 'msg_2', deleted_at: T1 } };
  const deleted = { type: 'ConversationDeleted', streamId, data: { conversation_id: 'conv_1', item_ids: ['msg_1', 'msg_3'], deleted_at: T1 } };
  await spec(t).given(created, clientItem, chatTurn, itemDeleted).then('conversations', {
    conv_1: { id: 'conv_1', object: 'conversation', workspace_id: 'w', metadata: { a: 'b' }, knowledge_base_ids: ['kb_1'], item_ids: ['msg_1', 'msg_3'], created_at: T0, updated_at: T1 },
  });
  await spec(t).given(created, clientItem, chatTurn, itemDeleted).then('conversation_items', {
    msg_1: { id: 'msg_1', conversation_id: 'conv_1', chat_id: null, item: message('msg_1', 'user', 'Hello') },
    msg_3: { id: 'msg_3', conversation_id: 'conv_1', chat_id: 'chatcmpl-1', item: message('msg_3', 'assistant', '78 metres.') },
  }, { tombstones: ['msg_2'] });
  await spec(t).given(created, clientItem, chatTurn, itemDeleted, deleted).then('conversation_items', {}, { tombstones: ['msg_1', 'msg_2', 'msg_3'] });
  await spec(t).given(created, clientItem, chatTurn, itemDeleted, deleted).then('conversations', {}, { tombstones: ['conv_1'] });
});
