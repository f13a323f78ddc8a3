import test from 'ava';
import { englishReader } from '../helpers/analyzer.ts';
import { cite, composeAnswer, fitTokens } from '../../src/domain/answer/compose.ts';
import { NOT_COVERED_ANSWER as NOT_IN_KNOWLEDGE_BASE } from '../../src/domain/chat/not-covered.ts';
import { splitIntoDeltas } from '../../src/domain/answer/deltas.ts';
import { excerpt } from '../../src/domain/answer/excerpt.ts';
import { countTokens } from '../../src/domain/document/tokens.ts';

test('the marker goes before the closing punctuation, or ends a sentence that has none', (t) => {
  t.is(cite('Acme was founded in 1998.', 2), 'Acme was founded in 1998 [2].');
  t.is(cite('Is it safe?', 1), 'Is it safe [1]?');
  t.is(cite('Team: Flyers; Stanley Cups: 2', 3), 'Team: Flyers; Stanley Cups: 2 [3].');
  t.is(cite('The steps are:', 3), 'The steps are [3].');
  t.is(cite('… middle of a long one …', 4), '… middle of a long one … [4].');
});

test('picks come best first and are told in reading order', (t) => {
  const composed = composeAnswer([
    { text: 'Best sentence.', citation: 3, passageRank: 2, position: 0 },
    { text: 'Earlier passage.', citation: 1, passageRank: 0, position: 5 },
    { text: 'Same passage, later.', citation: 3, passageRank: 2, position: 1 },
  ]);
  t.deepEqual(composed, { content: 'Earlier passage [1]. Best sentence [3]. Same passage, later [3].', truncated: false });
});

test('within max tokens the best picks are kept; the best is cut when even it does not fit', (t) => {
  const picks = [
    { text: 'The warranty covers manufacturing defects for two years.', citation: 1, passageRank: 0, position: 0 },
    { text: 'Accidental damage is not covered by the standard warranty at all.', citation: 2, passageRank: 1, position: 0 },
  ];
  const roomy = composeAnswer(picks, 100);
  t.false(roomy.truncated);
  const one = composeAnswer(picks, 16);
  t.deepEqual(one, { content: 'The warranty covers manufacturing defects for two years [1].', truncated: true });
  const cut = composeAnswer(picks, 9);
  t.true(cut.truncated);
  t.is(cut.content, 'The warranty covers … [1].');
  t.true(countTokens(cut.content) <= 9);
  t.deepEqual(fitTokens(NOT_IN_KNOWLEDGE_BASE, 4), { content: 'The knowledge base', truncated: true });
});

test('a long sentence is cut to the stretch that matches the question, words unchanged', (t) => {
  const filler = Array.from({ length: 60 }, (_, i) => `word${i}`);
  const text = [...filler.slice(0, 40), 'refund', 'within', '30', 'days', ...filler.slice(40)].join(' ');
  const weights = new Map([['refund', 1], ['30', 1]]);
  const cut = excerpt(text, (s) => weights.get(s) ?? 0, englishReader, 10);
  t.regex(cut, /^… .*refund within 30 days.* …$/);
  t.true(text.includes(cut.slice(2, -2)));
  t.is(excerpt('Short one.', () => 0, englishReader, 10), 'Short one.');
});

test('deltas of a few words join back to the exact content', (t) => {
  const content = 'Acme was founded in 1998 [1].  It employs about 4,200 people [1].';
  const deltas = splitIntoDeltas(content, 3);
  t.is(deltas.join(''), content);
  t.true(deltas.length > 3);
  t.deepEqual(splitIntoDeltas('', 3), []);
});
