import { readFileSync } from 'node:fs';
import test from 'ava';
import { toOcrModel } from '../../schemas/ocr-languages.ts';
import { parseImage } from '../../src/parsing/ocr/image.ts';
import { closeOcr, createOcrEngine } from '../../src/parsing/ocr/ocr.ts';
import { pageConfidence, pageText, readAuto } from '../../src/parsing/ocr/ocr-auto.ts';
import { languageSet, OCR_LANGUAGES, type OcrLanguage } from '../../src/parsing/ocr/ocr-languages.ts';
import type { OcrPage } from '../../src/parsing/ocr/ocr-tsv.ts';
import { createWorkerPool } from '../../src/parsing/ocr/ocr-workers.ts';
import { parsePdf } from '../../src/parsing/pdf/pdf.ts';
import { openPdf } from '../../src/parsing/pdf/pdf-open.ts';
import { renderPage } from '../../src/parsing/pdf/pdf-render.ts';
import { MEDIA_TYPES } from '../../src/parsing/types.ts';
import { OCR_SAMPLES, samplePage, type SampleLanguage } from '../helpers/ocr-pages.ts';
import { toPgm } from '../../src/parsing/ocr/gray-image.ts';
import { sharedDoc, withSharedData } from '../helpers/shared-data.ts';
import { tempDir } from '../helpers/temp.ts';
import { parseInput, pdf, wordAccuracy, writeFixture } from './parsing-pdf-fixtures.ts';

/**
 * OCR in other languages than English, on scans rendered here: each text leans on letters an
 * English model cannot read (ä ß é ç ñ ã, Cyrillic), so an English-only OCR fails these tests.
 */

const dir = tempDir('kbqa-ocr-languages-');
const engine = createOcrEngine();
test.after.always(async () => {
  dir.remove();
  await Promise.all([engine.close(), closeOcr()]);
});

const truth = (language: SampleLanguage) => OCR_SAMPLES[language].join(' ');
const read = async (language: SampleLanguage, languages?: OcrLanguage[]) => pageText(await engine.recognize(samplePage(OCR_SAMPLES[language]).image, { languages }));

test('codes: tesseract or ISO 639-1, anything else unknown', (t) => {
  t.is(toOcrModel('de'), 'deu');
  t.is(toOcrModel('DEU'), 'deu');
  t.is(toOcrModel('zh'), 'chi_sim');
  t.is(toOcrModel('ru'), 'rus');
  t.is(toOcrModel('xx'), undefined);
  t.is(toOcrModel('osd'), undefined);
  t.deepEqual(languageSet(['deu', 'eng', 'deu']), ['deu', 'eng']);
});

const page = (text: string, confidence: number): OcrPage => ({ paragraphs: [{ lines: [{ text, confidence }] }] });

test('detection: a confident English page is read once, with no script detection', async (t) => {
  const reads: string[][] = [];
  const result = await readAuto({
    read: async (languages) => (reads.push(languages), page('The quick brown fox jumps over the lazy dog', 92)),
    detectScript: async () => t.fail('no script detection on a confident page') as never,
    detectLanguage: async () => 'en',
  });
  t.deepEqual(reads, [['eng']]);
  t.deepEqual(result.languages, ['eng']);
});

test('detection: an unsure page gets its script model; another Latin language is read again; the more confident reading wins', async (t) => {
  const russian = await readAuto({
    read: async (languages) => (languages[0] === 'rus' ? page('Москва является столицей России', 92) : page('Mocksa agnsetca', 40)),
    detectScript: async () => 'Cyrillic',
    detectLanguage: async () => 'ru',
  });
  t.deepEqual(russian.languages, ['rus']);
  const ukrainian = await readAuto({
    read: async (languages) => page(languages[0] === 'ukr' ? 'Київ є столицею України' : 'Киів е столицею Украіни', { ukr: 93, rus: 80, eng: 40 }[languages[0] as string] ?? 0),
    detectScript: async () => 'Cyrillic',
    detectLanguage: async () => 'uk',
  });
  t.deepEqual(ukrainian.languages, ['ukr']);
  const german = await readAuto({
    read: async (languages) => (languages[0] === 'deu' ? page('Die Größe der Straße überrascht müde Bürger', 94) : page('Die Grole der Stral3e Uberrascht mide Burger', 80)),
    detectScript: async () => 'Latin',
    detectLanguage: async () => 'de',
  });
  t.deepEqual(german.languages, ['deu', 'eng']);
  const worse = await readAuto({
    read: async (languages) => page('Ein Satz, der eigentlich englisch ist, the end', languages[0] === 'eng' ? 90 : 70),
    detectScript: async () => 'Latin',
    detectLanguage: async () => 'de',
  });
  t.deepEqual(worse.languages, ['eng']);
  t.is(pageConfidence({ paragraphs: [{ lines: [page('a b c', 90).paragraphs[0]!.lines[0]!, page('d', 50).paragraphs[0]!.lines[0]!] }] }), 80);
});

test('detection with two cores: the English reading runs beside the previous languages\' and is stopped when they still hold', async (t) => {
  const started: string[] = [];
  const abandoned: string[] = [];
  let releasePrevious = () => {};
  const previousDone = new Promise<void>((resolve) => (releasePrevious = resolve));
  const deps = (german: boolean) => ({
    read: async (languages: OcrLanguage[]) => {
      started.push(languages.join('+'));
      if (languages[0] === 'eng') return page('The quick brown fox jumps over the lazy dog', 92);
      // The previous languages' reading waits until English has started: it cannot finish otherwise.
      await previousDone;
      return german ? page('Die Größe der Straße überrascht müde Bürger', 94) : page('The quick brown fox jumps over the lazy dog', 60);
    },
    detectScript: async () => null,
    detectLanguage: async (text: string) => (text.startsWith('Die') ? 'de' : 'en'),
    concurrent: true,
    abandon: (languages: OcrLanguage[]) => void abandoned.push(languages.join('+')),
  });
  const still = readAuto(deps(true), ['deu', 'eng']);
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(started, ['eng', 'deu+eng'], 'both readings started before either finished');
  releasePrevious();
  t.deepEqual((await still).languages, ['deu', 'eng']);
  t.deepEqual(abandoned, ['eng']);
  started.length = 0;
  const changed = await readAuto(deps(false), ['deu', 'eng']);
  t.deepEqual(changed.languages, ['eng']);
  t.deepEqual(started, ['eng', 'deu+eng'], 'the English reading started beside the first is the one used, not a third');
});

for (const language of ['deu', 'fra', 'spa', 'por'] as const) {
  test(`a ${language} scan is read in its language when detected, and not by the English model alone`, async (t) => {
    const english = wordAccuracy(truth(language), await read(language, ['eng']));
    const detected = wordAccuracy(truth(language), await read(language));
    t.log(`${language}: English model ${(english * 100).toFixed(0)}%, detected ${(detected * 100).toFixed(0)}%`);
    t.true(english < 0.8, 'the English model alone should miss the accented words');
    t.true(detected >= 0.95, await read(language));
  });
}

test('Cyrillic: Russian and Ukrainian scans are each detected and read with their own model', async (t) => {
  for (const language of ['rus', 'ukr'] as const) {
    const english = wordAccuracy(truth(language), await read(language, ['eng']));
    const detected = await read(language);
    t.log(`${language}: English model ${(english * 100).toFixed(0)}%, detected ${(wordAccuracy(truth(language), detected) * 100).toFixed(0)}%`);
    t.true(english < 0.2);
    t.true(wordAccuracy(truth(language), detected) >= 0.95, detected);
  }
});

test('pinned languages reach the image and PDF parsers: one reading, in those languages', async (t) => {
  const { png } = samplePage(OCR_SAMPLES.fra);
  const image = await parseImage({ ...parseInput(writeFixture(dir.path, 'fr.png', png), MEDIA_TYPES.png), ocrLanguages: ['fra'] });
  t.true(wordAccuracy(truth('fra'), image.blocks.map((b) => b.text).join(' ')) >= 0.95);
  const scan = await pdf((doc) => doc.image(samplePage(OCR_SAMPLES.deu).png, 0, 0, { width: 612 }));
  const doc = await parsePdf({ ...parseInput(writeFixture(dir.path, 'de.pdf', scan), MEDIA_TYPES.pdf), ocrLanguages: ['deu'] });
  t.deepEqual(doc.ocrPages, [1]);
  t.true(wordAccuracy(truth('deu'), doc.blocks.map((b) => b.text).join(' ')) >= 0.95, doc.blocks.map((b) => b.text).join(' '));
});

test('detection: a page whose sentences are in several Latin languages, even within a line, is read again with each of them, most letters first', async (t) => {
  const sentences: Record<string, string> = {
    'Die Größe der Straße überrascht die müden Bürger sehr.': 'de',
    'Der schnelle braune Fuchs springt über den faulen Hund.': 'de',
    'Le renard brun rapide saute par-dessus le chien paresseux.': 'fr',
    'ok.': 'en',
  };
  // As a scan's lines fall: the French sentence starts on the line where the German one ends.
  const lines = ['Die Größe der Straße überrascht die müden Bürger sehr.', 'Der schnelle braune Fuchs springt über den faulen Hund. Le renard brun', 'rapide saute par-dessus le chien paresseux.', 'ok.'];
  const mixed: OcrPage = { paragraphs: [{ lines: lines.map((text) => ({ text, confidence: 90 })) }] };
  const reads: string[] = [];
  const asked: string[] = [];
  const reading = await readAuto({
    read: async (languages) => (reads.push(languages.join('+')), { paragraphs: mixed.paragraphs.map((p) => ({ lines: p.lines.map((l) => ({ ...l, confidence: languages.length > 1 ? 95 : 90 })) })) }),
    detectScript: async () => t.fail('a confident page needs no script detection') as never,
    detectLanguage: async (text) => (asked.push(text), sentences[text] ?? 'und'),
  });
  t.deepEqual(asked, Object.keys(sentences).slice(0, 3), 'sentence by sentence; the two-letter one is too short to tell');
  t.deepEqual(reads, ['eng', 'deu+fra+eng']);
  t.deepEqual(reading.languages, ['deu', 'fra', 'eng']);
});

test('detection: the previous page’s languages read first; a page they do not fit starts over from English', async (t) => {
  const reads: string[] = [];
  const german = await readAuto(
    {
      read: async (languages) => (reads.push(languages.join('+')), page('Die Größe der Straße überrascht müde Bürger', 94)),
      detectScript: async () => t.fail('no script detection') as never,
      detectLanguage: async () => 'de',
    },
    ['deu', 'eng'],
  );
  t.deepEqual([reads, german.languages], [['deu+eng'], ['deu', 'eng']], 'a German page after a German page: one reading');
  reads.length = 0;
  const english = await readAuto(
    {
      read: async (languages) => (reads.push(languages.join('+')), languages[0] === 'rus' ? page('Тхе qуицк броwн фоx', 40) : page('The quick brown fox jumps over the lazy dog', 92)),
      detectScript: async () => 'Latin',
      detectLanguage: async () => 'en',
    },
    ['rus'],
  );
  t.deepEqual([reads, english.languages], [['rus', 'eng'], ['eng']], 'an English page after a Russian one is read again from English');
  reads.length = 0;
  const englishAgain = await readAuto(
    {
      read: async (languages) => (reads.push(languages.join('+')), page('The quick brown fox jumps over the lazy dog', 92)),
      detectScript: async () => t.fail('no script detection') as never,
      detectLanguage: async () => 'en',
    },
    ['eng', 'deu', 'fra'],
  );
  t.deepEqual([reads, englishAgain.languages], [['eng+deu+fra', 'eng'], ['eng']], 'an English page after a mostly English multilingual one is read by English alone');
});

test('every model is installed and loads, OSD included, and a page with next to no text still reads', async (t) => {
  const pool = createWorkerPool({ maxWorkers: 1 });
  try {
    for (const key of [...OCR_LANGUAGES, 'osd']) t.truthy(await pool.get(key), key);
  } finally {
    await pool.close();
  }
  // Too little for OSD to name a script, and read with low confidence: the English reading stands.
  const tiny = samplePage(['x7']).image;
  t.true(pageText(await engine.recognize(tiny)).length <= 4);
});

test('workers: past the limit the least recently used takes the new models; OSD has a worker of its own', async (t) => {
  const pool = createWorkerPool({ maxWorkers: 1 });
  try {
    const first = await pool.get('eng');
    t.is(await pool.get('eng'), first);
    const german = await pool.get('deu');
    t.is(german, first, 'the same worker, given the German model');
    const { data } = await german.recognize(toPgm(samplePage(OCR_SAMPLES.deu).image));
    t.regex(data.text, /[äöüß]/u, 'and it reads with it');
    t.not(await pool.get('osd'), first);
    t.not(await pool.get('eng'), first, 'the LSTM worker was stopped for OSD, within the limit');
  } finally {
    await pool.close();
  }
});

// The Korean PDF of the shared data has a text layer: rendered to pixels and read by OCR, its words are checked against it.
withSharedData(test, 'Korean OCR', () => {
  test('Korean: a rendered page of shared korean-text-with-tables.pdf is detected as Hangul and read', async (t) => {
    const pdfDoc = await openPdf(new Uint8Array(readFileSync(sharedDoc('pdf', 'korean-text-with-tables.pdf'))), 30_000);
    try {
      const first = await pdfDoc.getPage(1);
      const layer = (await first.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
      const image = await renderPage(pdfDoc, first);
      // Tesseract spaces Korean its own way: words are looked for in the text without spaces.
      const words = [...new Set(layer.split(/[\s,.()/*]+/).filter((w) => /^\p{Script=Hangul}{2,}$/u.test(w)))];
      const found = (text: string) => words.filter((w) => text.replace(/\s+/g, '').includes(w)).length / words.length;
      const english = found(pageText(await engine.recognize(image, { languages: ['eng'] })));
      const detected = found(pageText(await engine.recognize(image)));
      t.log(`Korean words found: English model ${(english * 100).toFixed(0)}%, detected ${(detected * 100).toFixed(0)}% of ${words.length}`);
      t.is(english, 0);
      t.true(detected >= 0.9);
    } finally {
      await pdfDoc.destroy();
    }
  });
});
