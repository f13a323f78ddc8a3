import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import type { GrayImage } from '../src/parsing/ocr/gray-image.ts';
import { sizeForOcr } from '../src/parsing/ocr/gray-image.ts';
import { decodePngOrJpeg } from '../src/parsing/ocr/image-decode.ts';
import { createOcrEngine, type OcrEngine } from '../src/parsing/ocr/ocr.ts';
import { pageText } from '../src/parsing/ocr/ocr-auto.ts';
import type { OcrLanguage } from '../src/parsing/ocr/ocr-languages.ts';
import { openTiff } from '../src/parsing/ocr/tiff.ts';
import { OCR_SAMPLES, samplePage } from '../test/helpers/ocr-pages.ts';
import { wordAccuracy } from '../test/unit/parsing-pdf-fixtures.ts';
import { log, round } from './util.ts';

/**
 * OCR by language: word accuracy and time per page read with the English model alone, with the
 * languages detected per page (no setting), and with the page's languages pinned (ocr.languages).
 * Pages: scans rendered here (test/helpers/ocr-pages.ts) and the shared scans with ground truth.
 * Times are of a second reading, with that path's workers started, as in a document of many
 * pages; the first page of a language set also pays about 0.3-0.6 s to start its worker.
 */

const SCANNED = join(import.meta.dirname, '..', '..', 'shared', 'data', 'docs', 'scanned');

type Page = { name: string; image: GrayImage; truth: string; pinned: OcrLanguage[] };

const PINNED: Record<keyof typeof OCR_SAMPLES, OcrLanguage[]> = { deu: ['deu'], fra: ['fra'], spa: ['spa'], por: ['por'], ukr: ['ukr'], rus: ['rus'] };
// eurotext.tif is one page in six languages: all of them pinned, English first.
const SHARED: [string, OcrLanguage[]][] = [
  ['eurotext.tif', ['eng', 'deu', 'fra', 'ita', 'spa', 'por']],
  ['phototest.tif', ['eng']],
  ['testocr.png', ['eng']],
  ['cosmic.png', ['eng']],
];

async function pages(): Promise<Page[]> {
  const generated = Object.entries(OCR_SAMPLES).map(([lang, lines]) => ({
    name: `generated ${lang}`,
    image: samplePage(lines).image,
    truth: lines.join(' '),
    pinned: PINNED[lang as keyof typeof OCR_SAMPLES],
  }));
  if (!existsSync(SCANNED)) return generated;
  const shared = await Promise.all(
    SHARED.map(async ([file, pinned]) => {
      const bytes = readFileSync(join(SCANNED, file));
      const image = await (file.endsWith('.tif') ? openTiff(bytes).page(0) : decodePngOrJpeg(bytes));
      return { name: file, image: sizeForOcr(image), truth: readFileSync(join(SCANNED, file.replace(/\.\w+$/, '.gt.txt')), 'utf8'), pinned };
    }),
  );
  return [...generated, ...shared];
}

async function measure(engine: OcrEngine, page: Page, languages: OcrLanguage[] | undefined) {
  await engine.recognize(page.image, { languages });
  const t0 = performance.now();
  const text = pageText(await engine.recognize(page.image, { languages }));
  return { word_accuracy: round(wordAccuracy(page.truth, text), 3), ms: Math.round(performance.now() - t0) };
}

export async function ocrLanguagesBench() {
  // As parser processes run it: KBQA_OCR_READERS, one reading a core by default.
  const engine = createOcrEngine({ readers: loadConfig(process.env).ingestion.ocrReaders });
  try {
    const results: Record<string, Record<string, { word_accuracy: number; ms: number }>> = {};
    for (const page of await pages()) {
      log(`ocr_languages: ${page.name}`);
      results[page.name] = {
        english_only: await measure(engine, page, ['eng']),
        detected: await measure(engine, page, undefined),
        pinned: await measure(engine, page, page.pinned),
      };
    }
    // Detection must never read worse than the English model alone by more than a word in twenty.
    const pass = Object.values(results).every((r) => r.detected!.word_accuracy >= r.english_only!.word_accuracy - 0.05);
    return { pages: results, shared_scans: existsSync(SCANNED) ? 'included' : 'skipped: ../shared/data not found', pass };
  } finally {
    await engine.close();
  }
}
