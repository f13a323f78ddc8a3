import test from 'ava';
import { loadWordRanks } from '../../src/adapters/local/hashing-embedder.ts';
import { NO_KNOWLEDGE_BASE } from '../../src/domain/answer/compose.ts';
import { NOT_COVERED_ANSWER as NOT_IN_KNOWLEDGE_BASE } from '../../src/domain/chat/not-covered.ts';
import { extractAnswer } from '../../src/domain/answer/extract.ts';
import { analyseQuestion } from '../../src/domain/answer/question.ts';
import { rarityFromRanks } from '../../src/domain/answer/rarity.ts';
import { termWeights } from '../../src/domain/answer/sentence-scoring.ts';
import type { ChatMessage } from '../../src/ports/models.ts';
import { analyzer, englishReader } from '../helpers/analyzer.ts';
import { termReader } from '../../src/domain/answer/words.ts';
import { isVerbatim, PASSAGES } from './answer-fixtures.ts';

const rarity = rarityFromRanks(loadWordRanks());
const reader = { read: englishReader, rarity };
const ask = (content: string, passages = PASSAGES) => extractAnswer({ messages: [{ role: 'user', content }], passages }, reader).content;

const CASES: [question: string, sentence: string][] = [
  ['Who founded Northwind Traders?', 'The company was founded in 1994 by Margaret Peacock in Seattle [1].'],
  ['When was Northwind founded?', 'The company was founded in 1994 by Margaret Peacock in Seattle [1].'],
  ['When was Contoso established?', 'Contoso was established in 2003 and is headquartered in Lyon, France [2].'],
  ['Where is Contoso headquartered?', 'Contoso was established in 2003 and is headquartered in Lyon, France [2].'],
  ['How many researchers does Contoso employ?', 'The firm employs 1,250 researchers [2].'],
  ['How many products are in the Northwind catalogue?', 'Its catalogue lists more than 70 products [1].'],
  ['What is a biosimilar?', 'A biosimilar is a biological medicine that is highly similar to an already approved reference medicine [2].'],
  ['How long do refunds take?', 'Refunds are issued within 14 days after the returned item arrives at the warehouse [3].'],
  ['Why are there shipping delays?', 'Shipping delays usually happen because customs inspections take longer during holidays [3].'],
];

for (const [question, sentence] of CASES) {
  test(`answers "${question}" with the sentence that does, citing its passage`, (t) => {
    const answer = ask(question);
    t.true(answer.includes(sentence), answer);
    t.true(isVerbatim(answer, PASSAGES), answer);
  });
}

test('markers are the passages’ own numbers, not their places in the list', (t) => {
  const renumbered = PASSAGES.map((p, i) => ({ ...p, index: [7, 3, 12][i]! }));
  t.is(ask('How many researchers does Contoso employ?', renumbered), 'The firm employs 1,250 researchers [3].');
});

test('the words of passages rendered into the user message are not taken for the question', (t) => {
  const prompt = `Passages:\n${PASSAGES.map((p) => `[${p.index}] ${p.text}`).join('\n')}\n\nQuestion: How many researchers does Contoso employ?`;
  const messages: ChatMessage[] = [{ role: 'user', content: prompt }];
  t.is(extractAnswer({ messages, passages: PASSAGES }, reader).content, 'The firm employs 1,250 researchers [2].');
});

test('nothing in common with the question: the knowledge base has no answer, and nothing is cited', (t) => {
  t.is(ask('What is the boiling point of mercury?'), NOT_IN_KNOWLEDGE_BASE);
  t.is(ask('When was Contoso established?', []), NOT_IN_KNOWLEDGE_BASE);
  t.is(ask('???'), NOT_IN_KNOWLEDGE_BASE);
  t.is(extractAnswer({ messages: [{ role: 'user', content: 'Hello there' }] }, reader).content, NO_KNOWLEDGE_BASE);
});

test('the same sentence from overlapping passages is quoted once', (t) => {
  const overlapping = [PASSAGES[1]!, { index: 4, text: 'The firm employs 1,250 researchers. Most of them work in Lyon.' }];
  t.is(ask('How many researchers does Contoso employ?', overlapping), 'The firm employs 1,250 researchers [2].');
});

test('words carried from earlier turns weigh no more in all than the last question’s own', (t) => {
  const long = 'I am comparing wholesale food distributors in the Pacific Northwest for our restaurant group, mostly cheese, olive oil, coffee and chocolate suppliers.';
  const question = analyseQuestion([{ role: 'user', content: long }, { role: 'assistant', content: '…' }, { role: 'user', content: 'How many products do they sell?' }], englishReader);
  const weights = termWeights(question, rarity);
  const sum = (last: boolean) => question.terms.filter((term) => (term.weight === 1) === last).reduce((n, term) => n + weights.get(term.stem)!, 0);
  t.true(question.terms.length > 10);
  t.true(Math.abs(sum(false) - sum(true)) < 1e-9);
});

test('the heading path retrieval puts above a chunk is context, never the answer', (t) => {
  const heading = 'Sample Worksheet › Heading Level 3';
  const passages = [{ index: 1, text: `${heading}\nThe sample document gives http://poi.apache.org/ for Apache POI.`, headingEnd: heading.length + 1 }];
  t.is(ask('Which heading level does the sample worksheet use?', passages), 'The sample document gives http://poi.apache.org/ for Apache POI [1].');
  t.is(ask('What URL does the sample document give for Apache POI?', passages), 'The sample document gives http://poi.apache.org/ for Apache POI [1].');
});

test('a heading path above text without capitals (Arabic) stays apart from the sentence under it', (t) => {
  const passages = [{ index: 1, text: 'Warsaw\nالوحدة الأساسية للتقسيم الإقليمي في بولندا هي البلدية (غمينا).', headingEnd: 7 }];
  const read = termReader((text) => analyzer.tokens(text, 'ar'));
  const { content } = extractAnswer({ messages: [{ role: 'user', content: 'ما هي الوحدة الأساسية للتقسيم الإقليمي في بولندا؟' }], passages }, { read, rarity });
  t.is(content, 'الوحدة الأساسية للتقسيم الإقليمي في بولندا هي البلدية (غمينا) [1].');
});
