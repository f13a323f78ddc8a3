import test from 'ava';
import { contentTerms, stem } from '../../src/domain/answer/words.ts';

test('inflections of a word share a stem', (t) => {
  for (const family of [
    ['founded', 'founding', 'founds', 'found'],
    ['price', 'prices', 'priced', 'pricing'],
    ['company', 'companies'],
    ['box', 'boxes'],
    ['stop', 'stopped', 'stopping'],
    ['create', 'created', 'creates', 'creating'],
  ]) {
    t.is(new Set(family.map(stem)).size, 1, family.join(', '));
  }
});

test('words that only look inflected keep their ending', (t) => {
  t.is(stem('status'), 'status');
  t.is(stem('analysis'), 'analysis');
  t.is(stem('class'), 'class');
  t.is(stem('speeds'), stem('speed'));
});

test('content terms drop function and question words and keep numbers whole', (t) => {
  t.deepEqual(
    contentTerms('How many of the 1,000 employees work in Berlin since 2019 or 3.5 years?').map((term) => term.word),
    ['1000', 'employees', 'work', 'berlin', '2019', '3.5', 'years'],
  );
  t.deepEqual(contentTerms('What is it? Tell me, please.'), []);
});
