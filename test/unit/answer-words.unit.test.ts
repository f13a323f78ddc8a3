import test from 'ava';
import { contentTermsOf, words } from '../../src/domain/answer/words.ts';
import { englishReader } from '../helpers/analyzer.ts';

const terms = (text: string) => contentTermsOf(englishReader, text);

test('inflections of a word meet, as the analyzer stems them', (t) => {
  for (const family of [
    ['founded', 'founding', 'founds'],
    ['price', 'prices', 'priced', 'pricing'],
    ['company', 'companies'],
    ['stop', 'stopped', 'stopping'],
  ]) {
    t.is(new Set(family.map((w) => terms(w)[0]!.stem)).size, 1, family.join(', '));
  }
});

test('content terms drop function words and the filler of requests, and keep numbers', (t) => {
  t.deepEqual(
    terms('How many of the employees work in Berlin since 2019?').map((term) => term.word),
    ['employees', 'work', 'berlin', '2019'],
  );
  t.deepEqual(terms('What is it? Tell me, please.'), []);
});

test('words keeps every word, stop words included, for spotting pronouns', (t) => {
  t.deepEqual(words('What about its price?'), ['what', 'about', 'its', 'price']);
});
