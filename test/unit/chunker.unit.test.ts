import test from 'ava';
import { chunkBlocks } from '../../src/domain/document/chunker.ts';
import { splitSentences } from '../../src/domain/document/sentences.ts';
import { countTokens } from '../../src/domain/document/tokens.ts';
import type { Block } from '../../src/parsing/types.ts';

const para = (page: number, text: string, headingPath: string[] = []): Block => ({ page, kind: 'paragraph', text, headingPath });
const sentence = (n: number) => `Sentence number ${n} talks about topic ${n} in some detail.`;

test('sentences split at terminal punctuation but not after abbreviations or initials', (t) => {
  t.deepEqual(splitSentences('First one. Second one! Third? Fourth.'), ['First one.', 'Second one!', 'Third?', 'Fourth.']);
  t.deepEqual(splitSentences('See Fig. 3 for details, e.g. Table 2. Then J. Smith agreed.'), ['See Fig. 3 for details, e.g. Table 2.', 'Then J. Smith agreed.']);
  t.deepEqual(splitSentences('这是第一句。这是第二句。'), ['这是第一句。', '这是第二句。']);
});

test('token estimate: words, punctuation, long words and CJK', (t) => {
  t.is(countTokens('hello world'), 2);
  t.is(countTokens('hello, world!'), 4);
  t.is(countTokens('internationalisation'), 4);
  t.is(countTokens('한국어'), 3);
});

test('chunks stay under max_tokens, never cross a page, and overlap when cut for size', (t) => {
  const blocks = [para(1, Array.from({ length: 12 }, (_, i) => sentence(i)).join(' ')), para(2, sentence(100))];
  const chunks = chunkBlocks('doc_1', blocks, { max_tokens: 40, overlap_tokens: 12 });
  t.true(chunks.every((c) => c.token_count <= 40));
  t.deepEqual([...new Set(chunks.map((c) => c.page))], [1, 2]);
  const pageTwo = chunks.filter((c) => c.page === 2);
  t.is(pageTwo.length, 1);
  t.is(pageTwo[0]!.text, sentence(100));
  const [a, b] = chunks;
  const lastOfA = splitSentences(a!.text).at(-1)!;
  t.true(b!.text.startsWith(lastOfA), 'the next chunk repeats the tail of the previous one');
  t.deepEqual(chunks.map((c) => c.index), chunks.map((_, i) => i));
});

test('no overlap when overlap_tokens is 0; every sentence appears exactly once', (t) => {
  const all = Array.from({ length: 20 }, (_, i) => sentence(i));
  const chunks = chunkBlocks('doc_1', [para(1, all.join(' '))], { max_tokens: 50, overlap_tokens: 0 });
  t.deepEqual(chunks.flatMap((c) => splitSentences(c.text)), all);
});

test('a heading starts a new chunk and becomes its heading path', (t) => {
  const blocks: Block[] = [
    para(1, 'Intro text.'),
    { page: 1, kind: 'heading', text: 'Methods', headingPath: [], level: 1 },
    para(1, 'We measured things.', ['Methods']),
    { page: 1, kind: 'heading', text: 'Sampling', headingPath: ['Methods'], level: 2 },
    para(1, 'Samples were random.', ['Methods', 'Sampling']),
  ];
  const chunks = chunkBlocks('doc_1', blocks, { max_tokens: 500, overlap_tokens: 50 });
  t.deepEqual(chunks.map((c) => [c.text, c.heading_path]), [
    ['Intro text.', []],
    ['Methods\nWe measured things.', ['Methods']],
    ['Sampling\nSamples were random.', ['Methods', 'Sampling']],
  ]);
});

test('character offsets point into the page text (blocks joined by newlines)', (t) => {
  const blocks = [para(1, 'Alpha beta. Gamma delta.'), para(1, 'Epsilon zeta.')];
  const pageText = blocks.map((b) => b.text).join('\n');
  const chunks = chunkBlocks('doc_1', blocks, { max_tokens: 6, overlap_tokens: 0 });
  for (const chunk of chunks) {
    t.is(pageText.slice(chunk.char_start, chunk.char_end).replace(/\n/g, ' '), chunk.text);
  }
});

test('a sentence longer than a chunk is cut at words; table rows are never split into sentences', (t) => {
  const long = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
  const row: Block = { page: 1, kind: 'table_row', text: 'Region: West. Sales: 12. Growth: 3.', headingPath: [] };
  const chunks = chunkBlocks('doc_1', [para(1, long), row], { max_tokens: 30, overlap_tokens: 0 });
  t.true(chunks.every((c) => c.token_count <= 30));
  t.true(chunks.some((c) => c.text.includes('Region: West. Sales: 12. Growth: 3.')));
});

test('ids are deterministic per document and differ across documents', (t) => {
  const blocks = [para(1, 'Same text here.')];
  const settings = { max_tokens: 100, overlap_tokens: 0 };
  t.is(chunkBlocks('doc_1', blocks, settings)[0]!.chunk_id, chunkBlocks('doc_1', blocks, settings)[0]!.chunk_id);
  t.not(chunkBlocks('doc_1', blocks, settings)[0]!.chunk_id, chunkBlocks('doc_2', blocks, settings)[0]!.chunk_id);
  t.regex(chunkBlocks('doc_1', blocks, settings)[0]!.chunk_id, /^chk_[0-9a-f]{24}$/);
});
