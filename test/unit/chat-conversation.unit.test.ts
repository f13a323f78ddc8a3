import test from 'ava';
import { chatWithConversations } from '../../src/app/services/chat-conversation.ts';
import type { ChatInput, ChatService, PreparedChat } from '../../src/app/services/chat.ts';
import type { ConversationService, ItemSource, NewItem } from '../../src/app/services/conversations.ts';
import type { Principal } from '../../src/app/services/principal.ts';
import type { ChatMessage } from '../../src/ports/models.ts';

const principal: Principal = { keyId: 'k', workspaceId: 'w', scopes: ['read'], knowledgeBaseIds: null };
const citation = { index: 1, document_id: 'doc_1', source: 'zephyr.md', knowledge_base_id: 'kb_1', chunk_id: 'ch_1', page: 2, document_version: 1 };

/** A chat that remembers what it was asked, and a conversation that remembers what was appended. */
function world(history: ChatMessage[]) {
  const asked: ChatInput[] = [];
  const appended: { items: NewItem[]; source?: ItemSource }[] = [];
  const chat = {
    async prepare(_p: Principal, input: ChatInput) {
      asked.push(input);
      // As chat.ts does: its provenance is what it searched and what its input was built from.
      return { id: 'chatcmpl-1', knowledgeBaseIds: ['kb_1'], provenance: ['kb_1', ...(input.derivedFrom ?? [])], context: [citation, { ...citation, index: 2 }], cite: (answer: string) => [citation, { ...citation, index: 2 }].filter((c) => answer.includes(`[${c.index}]`)), record: async () => {} } as unknown as PreparedChat;
    },
  } as ChatService;
  const conversations = {
    history: async () => ({ messages: history, knowledgeBaseIds: ['kb_0'] }),
    append: async (_p: Principal, _id: string, items: NewItem[], source?: ItemSource) => void appended.push({ items, source }),
  } as unknown as ConversationService;
  return { service: chatWithConversations(chat, conversations), asked, appended };
}

const input = (content: string): ChatInput => ({ model: 'm', messages: [{ role: 'user', content }], stream: false, conversationId: 'conv_1' });

test('the history goes first; the turn and the citations the answer names are appended once recorded', async (t) => {
  const { service, asked, appended } = world([{ role: 'user', content: 'Tell me about the Zephyr-9.' }, { role: 'assistant', content: 'A turbine.' }]);
  const prepared = await service.prepare(principal, input('How long are its blades?'), new AbortController().signal);
  t.deepEqual(asked[0]!.messages.map((m) => m.content), ['Tell me about the Zephyr-9.', 'A turbine.', 'How long are its blades?']);
  t.deepEqual(asked[0]!.derivedFrom, ['kb_0'], "the history's knowledge bases are the chat's provenance");
  t.deepEqual(appended, []);
  await prepared.record({ content: '78 metres [1].', finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 }, firstTokenMs: null });
  t.deepEqual(appended, [
    {
      items: [
        { role: 'user', content: 'How long are its blades?' },
        { role: 'assistant', content: '78 metres [1].', annotations: [{ type: 'file_citation', file_id: 'doc_1', filename: 'zephyr.md', index: 1, knowledge_base_id: 'kb_1', document_version: 1, chunk_id: 'ch_1', page: 2 }] },
      ],
      // What the chat searched and what the conversation already held: the new items are built from both.
      source: { chatId: 'chatcmpl-1', knowledgeBaseIds: ['kb_1', 'kb_0'] },
    },
  ]);
});

test('a conversation longer than a request may be keeps its latest turns', async (t) => {
  const history = Array.from({ length: 700 }, (_, i): ChatMessage => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }));
  const { service, asked } = world(history);
  await service.prepare(principal, input('And now?'), new AbortController().signal);
  const sent = asked[0]!.messages;
  t.is(sent.length, 500);
  t.is(sent[0]!.content, 'turn 201');
  t.is(sent.at(-1)!.content, 'And now?');
});

test('without a conversation the chat is left alone', async (t) => {
  const { service, asked, appended } = world([{ role: 'user', content: 'never read' }]);
  const { conversationId: _, ...plain } = input('Hi');
  const prepared = await service.prepare(principal, plain, new AbortController().signal);
  await prepared.record({ content: 'Hello.', finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 }, firstTokenMs: null });
  t.deepEqual(asked[0]!.messages, [{ role: 'user', content: 'Hi' }]);
  t.deepEqual(appended, []);
});
