import test from 'ava';
import { StringIds } from '../../src/lib/string-ids.ts';

test('each string finds the id it was given, through growth, whatever its script; others find none', (t) => {
  const ids = new StringIds();
  const terms = Array.from({ length: 5000 }, (_, i) => [`w${i}`, `słowo${i}`, `слово${i}`, `単語${i}`, `🙂${i}`][i % 5]!);
  // Stored terms come back in any order, with gaps where a term was never written.
  terms.forEach((term, i) => ids.set(term, terms.length - i + (i % 7 === 0 ? 10_000 : 0)));
  terms.forEach((term, i) => t.is(ids.get(term), terms.length - i + (i % 7 === 0 ? 10_000 : 0)));
  t.is(ids.size, terms.length);
  for (const unknown of ['w5000', 'słowo', '', 'W0', 'w0 ']) t.is(ids.get(unknown), undefined);
  ids.set('', 3);
  t.is(ids.get(''), 3);
});

test('a long string is kept whole', (t) => {
  const ids = new StringIds();
  const long = 'ж'.repeat(400);
  ids.set(long, 0);
  t.is(ids.get(long), 0);
  t.is(ids.get(long.slice(1)), undefined);
});
