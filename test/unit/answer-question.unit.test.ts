import test from 'ava';
import { analyseQuestion, questionFromConversation } from '../../src/domain/answer/question.ts';
import { englishReader } from '../helpers/analyzer.ts';
import { questionType } from '../../src/domain/answer/question-type.ts';
import type { ChatMessage } from '../../src/ports/models.ts';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });

test('the question is the last user message', (t) => {
  const messages = [{ role: 'system' as const, content: 'Answer from the passages.' }, user('What is the refund policy?'), assistant('Refunds take 30 days [1].'), user('Who approves a refund exception?')];
  t.is(questionFromConversation(messages, englishReader), 'Who approves a refund exception?');
  t.is(questionFromConversation([{ role: 'system', content: 'Be brief.' }], englishReader), '');
});

test('a follow-up with a pronoun carries the content words of earlier user turns, at lower weight', (t) => {
  const messages = [user('Who founded Acme Corporation?'), assistant('Jane Doe founded Acme Corporation [1].'), user('When was it founded?')];
  t.is(questionFromConversation(messages, englishReader), 'When was it founded? acme corporation');
  const question = analyseQuestion(messages, englishReader);
  t.true(question.followUp);
  t.is(question.type, 'when');
  t.deepEqual(
    question.terms.map((term) => [term.word, term.weight]),
    [['founded', 1], ['acme', 0.5], ['corporation', 0.5]],
  );
});

test('"what about …" keeps the earlier question and its kind', (t) => {
  const messages = [user('When was Acme founded?'), assistant('In 1998 [1].'), user('What about Globex?')];
  t.is(questionFromConversation(messages, englishReader), 'What about Globex? acme founded');
  t.is(analyseQuestion(messages, englishReader).type, 'when');
});

test('older turns fade and the assistant’s words are never carried', (t) => {
  const messages = [user('Tell me about the warranty terms.'), assistant('Warranty covers defects [2].'), user('And the shipping costs?'), assistant('Shipping is free [1].'), user('Why?')];
  const weights = Object.fromEntries(analyseQuestion(messages, englishReader).terms.map((term) => [term.word, term.weight]));
  t.true(weights.shipping! > weights.warranty!);
  t.is(weights.defects, undefined);
  t.is(weights.free, undefined);
});

test('a question that stands on its own carries nothing', (t) => {
  const messages = [user('When was Acme founded?'), assistant('In 1998 [1].'), user('How many employees work at Globex headquarters?')];
  t.is(questionFromConversation(messages, englishReader), 'How many employees work at Globex headquarters?');
  t.is(questionFromConversation([user('What is Vite?'), assistant('…'), user('What is Rollup?')], englishReader), 'What is Rollup?');
});

test('question types from wording', (t) => {
  t.is(questionType('How many people work there?'), 'quantity');
  t.is(questionType('What is the price of the Pro plan?'), 'quantity');
  t.is(questionType('When did the merger close?'), 'when');
  t.is(questionType('In what year was it built?'), 'when');
  t.is(questionType('Who is the CEO?'), 'who');
  t.is(questionType('Where is the head office?'), 'where');
  t.is(questionType('Why was the launch delayed?'), 'why');
  t.is(questionType('What is a vector index?'), 'definition');
  t.is(questionType('Define recall.'), 'definition');
  t.is(questionType('List the supported formats'), 'other');
});
