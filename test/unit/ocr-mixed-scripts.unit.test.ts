import test from 'ava';
import { pageText } from '../../src/parsing/ocr/ocr-auto.ts';
import { createOcrEngine } from '../../src/parsing/ocr/ocr.ts';
import { englishRecall, MIXED_SAMPLES, mixedPage, mixedSampleUnavailable, mixedTruth, SCRIPT_LETTERS, scriptRecall, type MixedSample } from '../helpers/mixed-script-pages.ts';

/**
 * Scans mixing English lines with Korean, Chinese or Russian ones, read with no languages set
 * (issue 36). Before the lines were read each in its own script, the English model read the
 * whole page: 0 Hangul syllables, 0 Han characters, 0 Cyrillic letters.
 */

const engine = createOcrEngine();
test.after.always(() => engine.close());

const NAMES: Record<MixedSample, string> = { kor: 'Korean (Hangul)', chi_sim: 'Chinese (Han)', rus: 'Russian (Cyrillic)' };

for (const sample of Object.keys(MIXED_SAMPLES) as MixedSample[]) {
  const title = `a scan of English lines between ${NAMES[sample]} ones keeps the English lines and reads the others in their script`;
  const unavailable = mixedSampleUnavailable(sample);
  if (unavailable) {
    test.skip(`${title} (skipped: ${unavailable})`, () => {});
    process.stdout.write(`skipping the English + ${sample} OCR fixture: ${unavailable}\n`);
    continue;
  }
  test.serial(title, async (t) => {
    const text = pageText(await engine.recognize(mixedPage(sample)));
    const truth = mixedTruth(sample);
    const other = scriptRecall(truth.other, text, SCRIPT_LETTERS[sample]);
    t.log(`${sample}: ${other.read} letters read of ${other.expected}, recall ${other.recall.toFixed(3)}`);
    t.true(other.recall >= 0.9, `${NAMES[sample]} letters recalled: ${other.recall.toFixed(3)}\n${text}`);
    t.true(englishRecall(truth.english, text) >= 0.95, `English lines:\n${text}`);
  });
}
