import test from 'ava';
import { quotesOf } from '../../src/domain/answer/quotes.ts';

const chunks = new Map([
  [1, 'Northwind Traders sells food.\nThe company was founded in 1994\nby Margaret Peacock in Seattle. Its catalogue lists more than 70 products.'],
  [2, 'Contoso was established in 2003 and is headquartered in Lyon, France. The firm employs 1,250 researchers.'],
]);

test('a quoted sentence is found in its chunk across line breaks, with its full stop', (t) => {
  const quotes = quotesOf('The company was founded in 1994 by Margaret Peacock in Seattle [1]. The firm employs 1,250 researchers [2].', chunks);
  const one = quotes.get(1)!;
  t.is(one.text, 'The company was founded in 1994\nby Margaret Peacock in Seattle.');
  t.is(chunks.get(1)!.slice(one.start, one.end), one.text);
  t.is(quotes.get(2)!.text, 'The firm employs 1,250 researchers.');
});

test('an excerpt cut by ellipses spans from its first piece to its last', (t) => {
  const quote = quotesOf('… headquartered in Lyon … [2].', chunks).get(2)!;
  t.is(quote.text, 'headquartered in Lyon');
});

test('a paraphrase is pinned on the sentence sharing most of its words; nothing shared, no quote', (t) => {
  const quotes = quotesOf('Margaret Peacock founded the company in Seattle in 1994 [1]. Penguins live in Antarctica [2].', chunks);
  t.is(quotes.get(1)!.text, 'The company was founded in 1994\nby Margaret Peacock in Seattle.');
  t.false(quotes.has(2));
});

test('markers of passages that do not exist are ignored, and several markers share a statement', (t) => {
  const quotes = quotesOf('Contoso employs 1,250 researchers [2][9].', chunks);
  t.deepEqual([...quotes.keys()], [2]);
});
