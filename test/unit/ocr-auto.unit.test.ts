import test from 'ava';
import { readAuto, type AutoDeps } from '../../src/parsing/ocr-auto.ts';
import type { OcrLanguage } from '../../src/parsing/ocr-languages.ts';
import type { OcrPage } from '../../src/parsing/ocr-tsv.ts';

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

test('sentences in other Latin languages are read again with their models, English kept', async (t) => {
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
