import test from 'ava';
import { bestReachable, idf, saturation } from '../../src/domain/retrieval/bm25.ts';
import { queryTerms } from '../../src/adapters/text/keyword-terms.ts';
import { analyzer } from '../helpers/analyzer.ts';

// What the keyword index was tuned with on SciFact stays: English folded, NLTK stop words, Porter.
const analyze = (text: string) => analyzer.terms(text, 'en');

test('words are folded, stop words dropped, Porter-stemmed', (t) => {
  t.deepEqual(analyze('The patients were RUNNING studies of fractures'), ['patient', 'run', 'studi', 'fractur']);
  t.deepEqual(analyze('Fracturing'), analyze('fractures'));
  t.deepEqual(analyze('Café CAFE café'), ['cafe', 'cafe', 'cafe']);
});

test('letters and digits split on everything else; short and non-Latin words are kept unstemmed', (t) => {
  t.deepEqual(analyze('IL-6, p53 & 1.25 mg/kg (n=17)'), ['il', '6', 'p53', '1', '25', 'mg', 'kg', 'n', '17']);
  t.deepEqual(analyze('vitamin D in T cells'), ['vitamin', 'd', 't', 'cell']);
  t.deepEqual(analyze('Ελληνικά русский'), ['ελληνικα', 'русский'], 'й is a letter, not an accented и');
  t.deepEqual(analyze('हिन्दी भाषा'), ['हिन्दी', 'भाषा'], 'vowel signs are part of the word, not accents');
});

test('Chinese, Japanese and Korean runs become character bigrams; Hangul survives accent folding', (t) => {
  t.deepEqual(analyze('骨折有关'), ['骨折', '折有', '有关']);
  t.deepEqual(analyze('维生素D'), ['维生', '生素', 'd']);
  t.deepEqual(analyze('骨'), ['骨']);
  t.deepEqual(analyze('かがく'), ['かが', 'がく'], 'kana keep their voicing marks');
  t.deepEqual(analyze('한국어 검색'), ['한국', '국어', '검색']);
  // A Korean word's particle does not keep it from its bare form: the pairs before it are shared.
  t.true(['유효', '효기', '기간'].every((pair) => analyze('유효기간은').includes(pair)));
});

test('hostile input is only characters: no throw, no junk terms', (t) => {
  t.deepEqual(analyze(''), []);
  t.deepEqual(analyze('🦊 🐕 ❤️ ™ — “” \u0000 \ud800 \u0301'), []);
  t.deepEqual(analyze('"NEAR(a b)" OR AND * : ^'), ['near', 'b']);
  t.deepEqual(analyze('x'.repeat(65)), [], 'run-together strings longer than any word are skipped');
  t.is(analyze('word '.repeat(20_000)).length, 20_000);
});

test('a query keeps distinct terms in order', (t) => {
  t.deepEqual(queryTerms(analyzer, 'cell divides cells', 'en'), ['cell', 'divid']);
});

test('BM25 parts: idf positive even for common or unseen terms; saturation below k1+1', (t) => {
  const params = { k1: 0.9, b: 0.4 };
  t.true(idf(100, 100) > 0);
  t.true(idf(0, 100) > idf(1, 100));
  t.is(idf(0, 100), Math.log(1 + 100.5 / 0.5));
  t.true(saturation(1000, 10, 10, params) < params.k1 + 1);
  t.is(saturation(1, 10, 10, params), 1.9 / 1.9);
  t.true(saturation(1, 5, 10, params) > saturation(1, 20, 10, params), 'shorter chunks score higher');
  t.is(bestReachable([1, 2], params), 3 * 1.9);
});
