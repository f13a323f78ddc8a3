import test from 'ava';
import { boxesOfSpan, placeLines, type Box } from '../../src/domain/document/box.ts';
import { pointAt, type Citation } from '../../src/app/retrieval/retrieved-context.ts';

const line = (y: number, text: string) => ({ x0: 0.1, y0: y, x1: 0.9, y1: y + 0.02, text });

test('lines are placed in the joined text even where hyphenation and spaces changed it', (t) => {
  const text = 'The keeper logged forty ships in March. Storms closed the harbour.';
  const boxes = placeLines(text, [line(0.1, 'The keeper logged for-'), line(0.12, 'ty ships in  March.'), line(0.14, 'Storms closed the harbour.')]);
  t.deepEqual(
    boxes.map((b) => b.start),
    [0, text.indexOf('ty ships'), text.indexOf('Storms')],
  );
});

test('a span covers the lines it touches, from each line’s start to the next one’s', (t) => {
  const boxes: Box[] = [0, 30, 60].map((start, i) => ({ x0: 0, y0: i / 10, x1: 1, y1: i / 10 + 0.05, start }));
  t.deepEqual(boxesOfSpan(boxes, 35, 50).map((b) => b.start), [30]);
  t.deepEqual(boxesOfSpan(boxes, 25, 61).map((b) => b.start), [0, 30, 60]);
  t.deepEqual(boxesOfSpan(boxes, 30, 30), []);
});

test('a quoted citation points at its quote’s offsets and lines; an unquoted one at its whole passage', (t) => {
  const paragraph = 'First line of text here. Second line holds the quote. Third.';
  const boxes: Box[] = [0, 25, 54].map((start, i) => ({ x0: 0, y0: i / 10, x1: 1, y1: i / 10 + 0.05, start }));
  const citation: Citation = { index: 1, source: 'a.pdf', page: 1, paragraph, document_id: 'd', knowledge_base_id: 'kb', document_version: 1, chunk_id: 'c', score: 1, heading_path: [], char_start: 0, char_end: paragraph.length, boxes };
  const start = paragraph.indexOf('Second');
  const quote = { text: 'Second line holds the quote.', start, end: start + 28 };
  // The chunk starts at offset 100 of its page's text; citations count in the page's text.
  t.like(pointAt(citation, { boxes, charStart: 100 }, quote), { char_start: 100 + start, char_end: 100 + start + 28, boxes: [boxes[1]!], quote });
  t.like(pointAt(citation, { boxes, charStart: 100 }, null), { char_start: 100, char_end: 100 + paragraph.length, boxes, quote: null });
});
