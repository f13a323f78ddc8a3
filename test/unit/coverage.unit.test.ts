import test from 'ava';
import { questionCoverage } from '../../src/domain/retrieval/coverage.ts';

const set = (...terms: string[]) => new Set(terms);
const passage = (heading: string[], ...sentences: string[][]) => ({ heading: set(...heading), sentences: sentences.map((s) => set(...s)) });
const question = (terms: Record<string, number>) => Object.entries(terms).map(([term, documentFrequency]) => ({ term, documentFrequency }));

test('a question whose rare words meet in one sentence is covered; the same words scattered are not', (t) => {
  const q = question({ zephyr: 2, blade: 3, long: 40 });
  const together = questionCoverage(q, 100, [passage([], ['zephyr', 'blade', 'long', 'metr'])]);
  t.is(together.coverage, 1);
  t.deepEqual([...together.held].sort(), ['blade', 'long', 'zephyr']);
  const scattered = questionCoverage(q, 100, [passage([], ['zephyr', 'turbin'], ['wind'], ['wind'], ['blade', 'glass'])]);
  t.true(scattered.coverage < 0.6, String(scattered.coverage));
});

test('a word the knowledge base never uses weighs most: its absence sinks the coverage', (t) => {
  const offTopic = question({ fifa: 0, world: 30, cup: 0, final: 20 });
  const held = questionCoverage(offTopic, 100, [passage([], ['world', 'final', 'cancer'])]);
  t.true(held.coverage < 0.3, String(held.coverage));
});

test('headings count as part of every sentence under them; two adjacent sentences count together', (t) => {
  const q = question({ norman: 5, duke: 4, william: 6 });
  const underHeading = questionCoverage(q, 100, [passage(['norman'], ['duke', 'william'])]);
  t.is(underHeading.coverage, 1);
  const split = questionCoverage(q, 100, [passage([], ['norman', 'duke'], ['william', 'conquer'])]);
  t.true(split.coverage > 0.7 && split.coverage < 1, String(split.coverage));
});

test('no question terms or no passages: nothing is covered', (t) => {
  t.is(questionCoverage([], 10, [passage([], ['a'])]).coverage, 0);
  t.is(questionCoverage(question({ x: 1 }), 10, []).coverage, 0);
});
