import test from 'ava';
import { readAuto, type AutoDeps } from '../../src/parsing/ocr/ocr-auto.ts';
import type { OcrLanguage } from '../../src/parsing/ocr/ocr-languages.ts';
import { pageOfWords, type OcrPage, type OcrWord } from '../../src/parsing/ocr/ocr-tsv.ts';

// readAuto's choices with the readers and detectors replaced: which readings a page costs.

const page = (sentences: string[], confidence: number): OcrPage => ({ paragraphs: [{ lines: sentences.map((text) => ({ text, confidence })) }] });

function deps(sentences: string[], languageOf: (sentence: string) => string, confidence = 92) {
  const readings: string[] = [];
  const fake: AutoDeps = {
    read: async (languages: OcrLanguage[]) => {
      readings.push(languages.join('+'));
      return page(sentences, languages.length > 1 ? confidence + 2 : confidence);
    },
    detectScript: async () => 'Latin',
    detectLanguage: async (text) => languageOf(text),
  };
  return { fake, readings };
}

const FRENCH = 'Le renard brun rapide saute par-dessus le chien paresseux.';
const GERMAN = 'Der schnelle braune Fuchs springt über den faulen Hund.';
const UNPLACED = ['Curabitur eget lacus sollicitudin, accumsan metus id.', 'Vivamus aliquam metus at nisl dapibus eleifend.', 'Sed posuere sit amet lacus sed pharetra.'];

test('from an engine without word boxes, sentences in other Latin languages are read again with all their models at once, English kept', async (t) => {
  const { fake, readings } = deps([FRENCH, GERMAN], (s) => (s === FRENCH ? 'fr' : 'de'));
  const reading = await readAuto(fake);
  t.deepEqual(readings, ['eng', 'fra+deu+eng']);
  t.deepEqual(reading.languages, ['fra', 'deu', 'eng']);
});

test('a page whose sentences the detector mostly cannot place keeps its English reading, in one pass', async (t) => {
  // One sentence in three placed (as Latin prose is, by chance resemblance to Italian or French).
  const { fake, readings } = deps([...UNPLACED, FRENCH], (s) => (s === FRENCH ? 'fr' : 'und'));
  const reading = await readAuto(fake);
  t.deepEqual(readings, ['eng']);
  t.deepEqual(reading.languages, ['eng']);
});

test('a page with most of its sentences placed is read again even when a few are not', async (t) => {
  const { fake, readings } = deps([FRENCH, GERMAN, FRENCH, UNPLACED[0]!], (s) => (s === FRENCH ? 'fr' : s === GERMAN ? 'de' : 'und'));
  await readAuto(fake);
  t.deepEqual(readings, ['eng', 'fra+deu+eng']);
});

// Three lines of one paragraph, a sentence each; a reading in `tag` marks every word it read.
const LINES = [
  'The quick brown fox jumps over the lazy dog.',
  'Le renard brun rapide saute par-dessus le chien.',
  'Der schnelle braune Fuchs springt über den Hund.',
];
const LANGUAGE_OF: Record<string, string> = { The: 'en', Le: 'fr', Der: 'de' };
function placedPage(tag: string): OcrPage {
  const words: OcrWord[] = LINES.flatMap((line, i) =>
    line.split(' ').map((text, j) => ({ text: tag ? `${text}·${tag}` : text, left: 10 + j * 100, top: 20 + i * 40, width: 90, height: 30, confidence: 90, line: `1.1.${i + 1}` })),
  );
  return pageOfWords({ words, lines: new Map(), width: 1000, height: 200 });
}

test('a page in several languages is read once per language, in the part where its sentences are, and each sentence kept from its own', async (t) => {
  const asked: { languages: string; top?: number; bottom?: number }[] = [];
  const fake: AutoDeps = {
    read: async (languages, region) => {
      asked.push({ languages: languages.join('+'), top: region?.top, bottom: region && region.top + region.height });
      return placedPage(languages[0] === 'eng' ? '' : languages[0]!);
    },
    detectScript: async () => 'Latin',
    detectLanguage: async (text) => LANGUAGE_OF[text.split(' ')[0]!.split('·')[0]!] ?? 'und',
  };
  const reading = await readAuto(fake);
  // The language with the most letters first (the German line has more).
  t.deepEqual(asked.map((a) => a.languages), ['eng', 'deu+eng', 'fra+eng']);
  // Each language's region holds its line (with a word's height around it), not the others' lines whole.
  t.like(asked[2], { top: 30, bottom: 120 });
  t.like(asked[1], { top: 70, bottom: 160 });
  const lines = reading.page.paragraphs.flatMap((p) => p.lines.map((l) => l.text));
  t.deepEqual(lines, [LINES[0], LINES[1]!.split(' ').map((w) => `${w}·fra`).join(' '), LINES[2]!.split(' ').map((w) => `${w}·deu`).join(' ')]);
  t.is(reading.page.boxes?.words.length, LINES.join(' ').split(' ').length, 'every word once');
});
