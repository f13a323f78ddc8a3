import test from 'ava';
import type { KnowledgeBaseDoc } from '../../projections/knowledge-bases/index.ts';
import { createExtractiveChatModel } from '../../src/adapters/local/extractive-chat-model.ts';
import type { RetrievedContext } from '../../src/app/retrieval/retrieved-context.ts';
import { createChatGrounding } from '../../src/app/services/chat-grounding.ts';
import { groundedMessages } from '../../src/domain/chat/prompt.ts';
import type { ChatDelta, ChatModel, ContextPassage } from '../../src/ports/models.ts';
import { analyzer } from '../helpers/analyzer.ts';
import { PASSAGES } from './answer-fixtures.ts';

const extractive = createExtractiveChatModel({ analyzer });
const provider: ChatModel = { model: { id: 'gpt-x', kind: 'chat', ownedBy: 'openai', created: 0 }, passesOptions: true, complete: () => Promise.reject(new Error('network')), stream: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('network')) }) }) };
const chatModels = new Map([[extractive.model.id, extractive], [provider.model.id, provider]]);
const kb = { id: 'kb_1', settings: {} } as unknown as KnowledgeBaseDoc;

/** A retrieval that finds `passages` whatever the query, and remembers what it was asked. */
function retrievalOf(passages: ContextPassage[]) {
  const queries: string[] = [];
  const retrieval = {
    retrieveContextAcross: async (_kbs: readonly KnowledgeBaseDoc[], request: { query: string }) => {
      queries.push(request.query);
      return { hits: [], passages, citations: [], answerable: passages.length > 0, coverage: 1, terms: [] } as unknown as RetrievedContext;
    },
  };
  return { retrieval, queries };
}

const asking = (content: string, model = extractive.model.id) => ({ messages: [{ role: 'user' as const, content }], model });

test('the offline model answers with the retrieval, as it would answer alone', async (t) => {
  const { retrieval, queries } = retrievalOf(PASSAGES);
  const grounded = await createChatGrounding({ analyzer, retrieval, chatModels })([kb], asking('Who founded Northwind Traders?'));
  t.is(queries.length, 1);
  t.true(queries[0]!.includes('Northwind'));
  const alone = await extractive.complete({ messages: groundedMessages(asking('Who founded Northwind Traders?').messages, PASSAGES), passages: PASSAGES });
  t.deepEqual(grounded.answer, alone);
  t.true(grounded.answerMs >= 0);
});

test('replaying a worked-out answer streams what the model streams', async (t) => {
  const request = { messages: groundedMessages(asking('How many countries does Contoso ship to?').messages, PASSAGES), passages: PASSAGES };
  const collect = async (deltas: AsyncIterable<ChatDelta>) => {
    const out: ChatDelta[] = [];
    for await (const d of deltas) out.push(d);
    return out;
  };
  t.deepEqual(await collect(extractive.local!.replay(extractive.local!.answer(request))), await collect(extractive.stream(request)));
});

test('no passage, or a provider model: no answer is worked out with the retrieval', async (t) => {
  const none = await createChatGrounding({ analyzer, retrieval: retrievalOf([]).retrieval, chatModels })([kb], asking('Who founded Northwind Traders?'));
  t.is(none.answer, null);
  const withProvider = await createChatGrounding({ analyzer, retrieval: retrievalOf(PASSAGES).retrieval, chatModels })([kb], asking('Who founded Northwind Traders?', 'gpt-x'));
  t.is(withProvider.answer, null);
  t.is(withProvider.passages.length, PASSAGES.length);
});

test('the question carries a follow-up\'s context into the retrieval', async (t) => {
  const { retrieval, queries } = retrievalOf(PASSAGES);
  const messages = [
    { role: 'user' as const, content: 'Tell me about Contoso Pharmaceuticals.' },
    { role: 'assistant' as const, content: 'It develops generic medicines [2].' },
    { role: 'user' as const, content: 'Where is it headquartered?' },
  ];
  await createChatGrounding({ analyzer, retrieval, chatModels })([kb], { messages, model: extractive.model.id });
  t.regex(queries[0]!, /contoso/i);
});
