import test from 'ava';
import { readAuto, type AutoDeps } from '../../src/parsing/ocr/ocr-auto.ts';
import { doubtedLines, readMixedScripts, type LineDeps } from '../../src/parsing/ocr/ocr-mixed-scripts.ts';
import type { Region } from '../../src/parsing/ocr/ocr-region.ts';
import { stackRegions, wordsByStrip } from '../../src/parsing/ocr/ocr-strips.ts';
import { pageOfWords, type OcrPage, type OcrWord } from '../../src/parsing/ocr/ocr-tsv.ts';

// The line-by-line reading of mixed-script pages with the readers replaced: which lines are read
// again, with which models, what is kept, and that a page with nothing to doubt costs nothing more.

type LineSpec = { text: string; confidence: number };
const word = (text: string, i: number, j: number, confidence: number): OcrWord => ({ text, left: 100 + j * 120, top: 100 + i * 80, width: 110, height: 40, confidence, line: `1.1.${i + 1}` });

function pageOf(lines: LineSpec[]): OcrPage {
  const words = lines.flatMap((l, i) => l.text.split(' ').map((text, j) => word(text, i, j, l.confidence)));
  return pageOfWords({ words, lines: new Map(lines.map((_, i) => [`1.1.${i + 1}`, { top: 100 + i * 80, height: 40 }])), width: 1400, height: 200 + lines.length * 80 });
}
const lineTexts = (page: OcrPage) => page.paragraphs.flatMap((p) => p.lines.map((l) => l.text));

const MIXED: LineSpec[] = [
  { text: 'The annual report is published', confidence: 96 },
  { text: 'Hf EME oid Sof 2AE LC', confidence: 27 },
  { text: 'Sales grew in all regions', confidence: 95 },
  { text: 'HAN = Ml XG 250M DiE0|', confidence: 18 },
];

/** Reads every part as `reading[part]`, at `confidence`, and says which script OSD would name. */
function fakeLines(script: (regions: Region[]) => string | null, reading: (languages: string[], index: number) => string, confidence = 92) {
  const calls: string[] = [];
  const deps: LineDeps = {
    detectScriptOf: async (regions) => (calls.push(`osd ${regions.length}`), script(regions)),
    readParts: async (languages, regions) => {
      calls.push(`${languages.join('+')} ${regions.length}`);
      return regions.map((r, i) => reading(languages, i).split(' ').map((text, j) => ({ text, left: r.left + j * 50, top: r.top + 8, width: 45, height: 40, confidence, line: 'x' })));
    },
  };
  return { deps, calls };
}

test('the doubted lines of a mixed page are read once, stacked, with their script model before English, and take the place of the English reading', async (t) => {
  const { deps, calls } = fakeLines(() => 'Hangul', (_, i) => ['연례 보고서는', '작년에는 세 지역'][i]!);
  const result = await readMixedScripts(deps, pageOf(MIXED));
  t.deepEqual(calls, ['osd 2', 'kor+eng 2']);
  t.deepEqual(lineTexts(result!.page), ['The annual report is published', '연례 보고서는', 'Sales grew in all regions', '작년에는 세 지역']);
  t.deepEqual(result!.models, ['kor']);
  // Each line keeps its place: its key, so the layout orders it as before.
  t.deepEqual([...new Set(result!.page.boxes!.words.map((w) => w.line))], ['1.1.1', '1.1.2', '1.1.3', '1.1.4']);
});

test('a line read less confidently with another model keeps its English reading; a script without a model of its own changes nothing', async (t) => {
  const worse = fakeLines(() => 'Cyrillic', () => 'Ыыы', 10);
  t.is(await readMixedScripts(worse.deps, pageOf(MIXED)), undefined);
  const latin = fakeLines(() => 'Latin', () => 'never read');
  t.is(await readMixedScripts(latin.deps, pageOf(MIXED)), undefined);
  t.deepEqual(latin.calls, ['osd 2']);
});

test('lines still doubtful after the first script get a second round, with another script only', async (t) => {
  // OSD names Han for both lines first; the second line stays doubtful and alone is Hangul.
  const { deps, calls } = fakeLines((regions) => (regions.length === 2 ? 'Han' : 'Hangul'), (languages, i) => (languages[0] === 'chi_sim' ? ['年度报告', '乱码'][i]! : '작년에는'));
  const confident = deps.readParts;
  deps.readParts = async (languages, regions) => {
    const parts = await confident(languages, regions);
    // The Chinese model reads the Korean line at 40: still doubtful.
    return languages[0] === 'chi_sim' ? parts.map((words, i) => (i === 1 ? words.map((w) => ({ ...w, confidence: 40 })) : words)) : parts;
  };
  const result = await readMixedScripts(deps, pageOf(MIXED));
  t.deepEqual(calls, ['osd 2', 'chi_sim+eng 2', 'osd 1', 'kor+eng 1']);
  t.deepEqual(lineTexts(result!.page), ['The annual report is published', '年度报告', 'Sales grew in all regions', '작년에는']);
});

test('a page the English model reads confidently throughout, or doubts throughout, has no lines to read one by one', (t) => {
  t.deepEqual(doubtedLines(pageOf([MIXED[0]!, MIXED[2]!])), []);
  // All doubted: the whole page goes to script detection (ocr-auto.ts), as before.
  t.deepEqual(doubtedLines(pageOf([MIXED[1]!, MIXED[3]!])), []);
  // A short doubted line (a page number, a speck) is not worth a reading.
  t.deepEqual(doubtedLines(pageOf([MIXED[0]!, { text: '7', confidence: 20 }])), []);
});

test('readAuto: a confident English page costs one reading, no script detection of its lines', async (t) => {
  const calls: string[] = [];
  const deps: AutoDeps = {
    read: async (languages) => (calls.push(languages.join('+')), pageOf([MIXED[0]!, MIXED[2]!])),
    detectScript: async () => (calls.push('osd'), 'Latin'),
    detectLanguage: async () => 'en',
    detectScriptOf: async () => (calls.push('osd lines'), 'Latin'),
    readParts: async () => (calls.push('parts'), []),
  };
  const reading = await readAuto(deps);
  t.deepEqual(calls, ['eng']);
  t.deepEqual(reading.languages, ['eng']);
});

test('stacked strips: a word read in a strip is placed back where the strip came from on the page', (t) => {
  const page = { width: 1000, height: 600, data: new Uint8Array(1000 * 600).fill(255) };
  const regions = [
    { left: 50, top: 100, width: 400, height: 50 },
    { left: 20, top: 400, width: 700, height: 50 },
  ];
  const stacked = stackRegions(page, regions);
  t.is(stacked.image.width, 700 + 2 * 50);
  const inStrip = (i: number, left: number, text: string): OcrWord => ({ text, left: 50 + left, top: stacked.strips[i]!.top + 5, width: 30, height: 40, confidence: 90, line: '1.1.1' });
  const reading = pageOfWords({ words: [inStrip(1, 10, 'b'), inStrip(0, 100, 'a2'), inStrip(0, 0, 'a1')], lines: new Map(), width: stacked.image.width, height: stacked.image.height });
  const [first, second] = wordsByStrip(reading, stacked);
  t.deepEqual(first!.map((w) => [w.text, w.left, w.top]), [['a1', 50, 105], ['a2', 150, 105]]);
  t.deepEqual(second!.map((w) => [w.text, w.left, w.top]), [['b', 30, 405]]);
});
