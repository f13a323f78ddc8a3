import test from 'ava';
import { createExtractiveChatModel } from '../../src/adapters/local/extractive-chat-model.ts';
import { analyzer } from '../helpers/analyzer.ts';
import { NO_KNOWLEDGE_BASE } from '../../src/domain/answer/compose.ts';
import { NOT_COVERED_ANSWER as NOT_IN_KNOWLEDGE_BASE, notCoveredAnswer } from '../../src/domain/chat/not-covered.ts';
import { countTokens } from '../../src/domain/document/tokens.ts';
import type { ChatDelta, ChatMessage, ChatRequest } from '../../src/ports/models.ts';
import { isVerbatim, PASSAGES } from './answer-fixtures.ts';

const model = createExtractiveChatModel({ analyzer });
const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });

async function collect(request: ChatRequest): Promise<{ content: string; deltas: ChatDelta[] }> {
  const deltas: ChatDelta[] = [];
  for await (const delta of model.stream(request)) deltas.push(delta);
  return { content: deltas.map((d) => ('content' in d ? d.content : '')).join(''), deltas };
}

test('describes itself as the offline chat model', (t) => {
  t.like(model.model, { id: 'kbqa-extractive', kind: 'chat', ownedBy: 'kbqa' });
});

test('quotes the answering sentence verbatim and cites its passage', async (t) => {
  const result = await model.complete({ messages: [user('Who founded Northwind Traders?')], passages: PASSAGES });
  t.true(result.content.includes('The company was founded in 1994 by Margaret Peacock in Seattle [1].'), result.content);
  t.true(result.content.split(/\[\d+\]\./).length - 1 <= 2, 'two sentences at most');
  t.is(result.finishReason, 'stop');
  t.true(isVerbatim(result.content, PASSAGES));
});

test('a follow-up question draws on the earlier turns', async (t) => {
  const question = user('How many countries does it ship to?');
  const aboutContoso = await model.complete({ messages: [user('Tell me about Contoso Pharmaceuticals.'), assistant('Contoso develops generic medicines [2].'), question], passages: PASSAGES });
  t.is(aboutContoso.content, 'Contoso ships to pharmacies in 8 countries [2].');
  const aboutNorthwind = await model.complete({ messages: [user('Tell me about Northwind Traders.'), assistant('A food distributor [1].'), question], passages: PASSAGES });
  t.is(aboutNorthwind.content, 'Northwind ships to customers in 21 countries [1].');
});

test('nothing relevant: says the knowledge base has no answer, with no markers', async (t) => {
  const result = await model.complete({ messages: [user('What is the boiling point of mercury?')], passages: PASSAGES });
  t.is(result.content, NOT_IN_KNOWLEDGE_BASE);
  t.notRegex(result.content, /\[\d+\]/);
  t.is((await model.complete({ messages: [user('What is the boiling point of mercury?')], passages: [] })).content, NOT_IN_KNOWLEDGE_BASE);
});

test('nothing relevant, asked in another language: the refusal is in the language the request names', async (t) => {
  const result = await model.complete({ messages: [user('水银的沸点是多少？')], passages: PASSAGES, language: 'zh' });
  t.is(result.content, notCoveredAnswer('zh'));
});

test('plain chat without passages gets the fixed explanation', async (t) => {
  const result = await model.complete({ messages: [user('Write me a poem about the sea.')] });
  t.is(result.content, NO_KNOWLEDGE_BASE);
  t.is(result.finishReason, 'stop');
});

test('usage counts the prompt (4 tokens of framing a message) and the answer; deterministic whatever the temperature', async (t) => {
  const messages = [{ role: 'system' as const, content: 'Answer from the passages.' }, user('When was Contoso established?')];
  const cold = await model.complete({ messages, passages: PASSAGES, temperature: 0 });
  const hot = await model.complete({ messages, passages: PASSAGES, temperature: 2 });
  t.deepEqual(hot, cold);
  const prompt = 2 * 4 + countTokens('Answer from the passages.') + countTokens('When was Contoso established?') + PASSAGES.reduce((n, p) => n + countTokens(p.text), 0);
  t.deepEqual(cold.usage, { promptTokens: prompt, completionTokens: countTokens(cold.content) });
  // Passages already rendered into the prompt are not counted twice.
  const rendered = [user(`${PASSAGES.map((p) => `[${p.index}] ${p.text}`).join('\n')}\n\nWhen was Contoso established?`)];
  const once = await model.complete({ messages: rendered, passages: PASSAGES });
  t.is(once.usage.promptTokens, 4 + countTokens(rendered[0]!.content));
});

test('the stream delivers the same content in deltas of a few words, then finish reason and usage', async (t) => {
  const request = { messages: [user('Why are there shipping delays, and how long do refunds take?')], passages: PASSAGES };
  const complete = await model.complete(request);
  const { content, deltas } = await collect(request);
  t.is(content, complete.content);
  const pieces = deltas.slice(0, -1);
  t.true(pieces.length > 3);
  t.true(pieces.every((d) => 'content' in d && d.content.trim().split(/\s+/).length <= 3));
  t.deepEqual(deltas.at(-1), { finishReason: complete.finishReason, usage: complete.usage });
});

test('an abort stops the stream between deltas', async (t) => {
  const controller = new AbortController();
  const seen: ChatDelta[] = [];
  // The signal's reason is thrown as it is: a DOMException named AbortError, which AVA's throwsAsync does not take for an Error.
  const error = await (async () => {
    try {
      for await (const delta of model.stream({ messages: [user('Why are there shipping delays?')], passages: PASSAGES, signal: controller.signal })) {
        seen.push(delta);
        controller.abort();
      }
    } catch (caught) {
      return caught as Error;
    }
    return undefined;
  })();
  t.is(error?.name, 'AbortError');
  t.is(seen.length, 1);
  const reason = new Error('client went away');
  await t.throwsAsync(model.complete({ messages: [user('Why?')], passages: PASSAGES, signal: AbortSignal.abort(reason) }), { is: reason });
});

test('max tokens cuts the answer and reports "length"', async (t) => {
  const request = { messages: [user('What is a biosimilar?')], passages: PASSAGES, maxTokens: 10 };
  const result = await model.complete(request);
  t.is(result.finishReason, 'length');
  t.true(result.usage.completionTokens <= 10);
  t.is(result.content, 'A biosimilar is a … [2].');
  const { content, deltas } = await collect(request);
  t.is(content, result.content);
  t.like(deltas.at(-1), { finishReason: 'length' });
  const roomy = await model.complete({ ...request, maxTokens: 500 });
  t.is(roomy.finishReason, 'stop');
});

test('a short follow-up is not drowned by a long earlier question', async (t) => {
  const messages = [
    user('I am comparing wholesale food distributors in the Pacific Northwest for our restaurant group and want to know about Northwind Traders.'),
    assistant('Northwind Traders is a wholesale distributor of specialty foods [1].'),
    user('How many products do they sell?'),
  ];
  const { content } = await model.complete({ messages, passages: PASSAGES });
  t.true(content.includes('Its catalogue lists more than 70 products [1].'), content);
});
