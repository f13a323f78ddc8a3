import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { sizeForOcr, type GrayImage } from '../src/parsing/ocr/gray-image.ts';
import { decodePngOrJpeg } from '../src/parsing/ocr/image-decode.ts';
import { createOcrEngine, type OcrEngine } from '../src/parsing/ocr/ocr.ts';
import { pageText } from '../src/parsing/ocr/ocr-auto.ts';
import { openTiff } from '../src/parsing/ocr/tiff.ts';
import { englishRecall, MIXED_SAMPLES, mixedPage, mixedSampleUnavailable, mixedTruth, SCRIPT_LETTERS, scriptRecall, type MixedSample } from '../test/helpers/mixed-script-pages.ts';
import { samplePage } from '../test/helpers/ocr-pages.ts';
import { SCAN_LINES, wordAccuracy } from '../test/unit/parsing-pdf-fixtures.ts';
import { log, round } from './util.ts';

/**
 * Scans that mix scripts (issue 36): English lines alternating with Korean, Chinese or Russian,
 * read with no languages set. For each: the other script's letters expected and read, their
 * recall (in order), the English lines' word accuracy, and the seconds of a warm reading. The
 * Latin pages (a generated English page and the shared English scans) show what detection costs
 * where there is nothing to detect.
 */

const SCANNED = join(import.meta.dirname, '..', '..', 'shared', 'data', 'docs', 'scanned');
// The layout JPEG has two lines of code the English model doubts: they cost a script detection.
const LATIN_SCANS = ['phototest.tif', 'testocr.png', 'cosmic.png', 'eurotext.tif', 'layout-parser-paper-with-table.jpg'];

async function timedText(engine: OcrEngine, image: GrayImage, runs: number) {
  await engine.recognize(image);
  let best = Infinity;
  let text = '';
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    text = pageText(await engine.recognize(image));
    best = Math.min(best, performance.now() - t0);
  }
  return { text, s: round(best / 1000, 2) };
}

async function mixed(engine: OcrEngine, sample: MixedSample) {
  const unavailable = mixedSampleUnavailable(sample);
  if (unavailable) return { skipped: unavailable };
  const { text, s } = await timedText(engine, mixedPage(sample), 2);
  const truth = mixedTruth(sample);
  const other = scriptRecall(truth.other, text, SCRIPT_LETTERS[sample]);
  return { letters_expected: other.expected, letters_read: other.read, recall: round(other.recall, 3), english_recall: round(englishRecall(truth.english, text), 3), s };
}

async function latinPages(): Promise<[string, GrayImage, string][]> {
  const english = samplePage(SCAN_LINES);
  const pages: [string, GrayImage, string][] = [['generated English', english.image, SCAN_LINES.join(' ')]];
  if (!existsSync(SCANNED)) return pages;
  for (const file of LATIN_SCANS) {
    const bytes = readFileSync(join(SCANNED, file));
    const image = await (file.endsWith('.tif') ? openTiff(bytes).page(0) : decodePngOrJpeg(bytes));
    const truth = join(SCANNED, file.replace(/\.\w+$/, '.gt.txt'));
    pages.push([file, sizeForOcr(image), existsSync(truth) ? readFileSync(truth, 'utf8') : '']);
  }
  return pages;
}

export async function ocrMixedScriptsBench() {
  const engine = createOcrEngine({ readers: loadConfig(process.env).ingestion.ocrReaders });
  try {
    const results: Record<string, unknown> = {};
    for (const sample of Object.keys(MIXED_SAMPLES) as MixedSample[]) {
      log(`ocr_mixed_scripts: English + ${sample}`);
      results[`English + ${sample}`] = await mixed(engine, sample);
    }
    for (const [name, image, truth] of await latinPages()) {
      log(`ocr_mixed_scripts: ${name}`);
      const { text, s } = await timedText(engine, image, 3);
      results[name] = { ...(truth && { word_accuracy: round(wordAccuracy(truth, text), 3) }), s };
    }
    return { engine: engine.kind, pages: results };
  } finally {
    await engine.close();
  }
}
