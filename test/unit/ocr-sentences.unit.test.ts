import test from 'ava';
import { cropGray, placeOnPage, regionAround } from '../../src/parsing/ocr/ocr-region.ts';
import { pageSentences, withSentencesFrom } from '../../src/parsing/ocr/ocr-sentences.ts';
import { pageOfWords, type OcrWord } from '../../src/parsing/ocr/ocr-tsv.ts';

const word = (text: string, left: number, top: number, line: string, width = 50): OcrWord => ({ text, left, top, width, height: 20, confidence: 90, line });

test('sentences run across lines and end mid-line, within a paragraph', (t) => {
  const page = pageOfWords({
    words: [word('Hello', 0, 0, '1.1.1'), word('there.', 60, 0, '1.1.1'), word('Bonjour', 120, 0, '1.1.1'), word('à', 0, 30, '1.1.2'), word('tous.', 60, 30, '1.1.2'), word('Next', 0, 90, '1.2.1')],
    lines: new Map(),
    width: 400,
    height: 200,
  });
  t.deepEqual(pageSentences(page).map((s) => s.text), ['Hello there.', 'Bonjour à tous.', 'Next']);
});

test("a sentence's span on each line is replaced whole by what the other reading read there, however it cut the words", (t) => {
  const base = pageOfWords({
    words: [word('Keep', 0, 0, '1.1.1'), word('this.', 60, 0, '1.1.1'), word('Le', 120, 0, '1.1.1'), word('cafe', 180, 0, '1.1.1'), word('creme.', 240, 0, '1.1.1')],
    lines: new Map(),
    width: 400,
    height: 100,
  });
  // The other reading read "café-crème." as one word where the base read two, and also read the first sentence (ignored).
  const other = pageOfWords({
    words: [word('Kéép', 0, 0, '1.1.1'), word('thís.', 60, 0, '1.1.1'), word('Le', 120, 0, '1.1.1'), word('café-crème.', 180, 0, '1.1.1', 110)],
    lines: new Map(),
    width: 400,
    height: 100,
  });
  const [, french] = pageSentences(base);
  const merged = withSentencesFrom(base, [{ sentence: french!, from: other }]);
  t.is(merged.paragraphs[0]!.lines[0]!.text, 'Keep this. Le café-crème.');
  t.deepEqual(merged.boxes?.words.map((w) => w.line), ['1.1.1', '1.1.1', '1.1.1', '1.1.1']);
});

test('a region is cut out of the image and its reading placed back where the region sits', (t) => {
  const image = { width: 4, height: 3, data: Uint8Array.from([0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23]) };
  t.deepEqual([...cropGray(image, { left: 1, top: 1, width: 2, height: 2 }).data], [11, 12, 21, 22]);
  const words = [word('a', 100, 50, '1.1.1'), word('b', 300, 60, '1.1.1')];
  // Padded by the tallest word's height, within the page.
  t.deepEqual(regionAround(words, 340, 1000), { left: 80, top: 30, width: 260, height: 70 });
  const read = pageOfWords({ words: [word('a', 20, 20, '1.1.1')], lines: new Map([['1.1.1', { top: 20, height: 20 }]]), width: 260, height: 70 });
  const placed = placeOnPage(read, { left: 80, top: 30, width: 260, height: 70 }, 340, 1000);
  t.like(placed.boxes?.words[0], { left: 100, top: 50 });
  t.like(placed.boxes, { width: 340, height: 1000 });
  t.like(placed.boxes?.lines.get('1.1.1'), { top: 50 });
});
