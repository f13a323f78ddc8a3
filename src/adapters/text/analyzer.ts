import type { Analyzer, Token } from '../../ports/analyzer.ts';
import { boundedMemo } from '../../domain/shared/bounded-memo.ts';
import { languageOfScript, loadEldDetector, SAMPLE_CHARS, type LanguageDetector } from './detect.ts';
import { SUPPORTED_LANGUAGES } from './languages.ts';
import { scanRuns, WORD } from './scan.ts';
import { segmentRun, type CjkMode } from './segment.ts';
import { createWordAnalysis } from './words.ts';

/** Changes whenever the terms of some text could change: stored terms of another version are stale. */
export const ANALYZER_VERSION = 'text-3';

/** Longer "words" are base64, hashes or URLs run together: never what someone types to find a passage. */
const MAX_WORD_LENGTH = 64;

export type TextAnalyzerOptions = { detector?: LanguageDetector; cjk?: CjkMode };

/** Texts whose language is remembered: a few requests' queries and passages at a time. */
const RECENT_TEXTS = 256;

/**
 * The analyzer of every text in the service. Words are found by a fast scan over the original
 * text; only runs of scripts written without spaces go through ICU's segmenter (Intl.Segmenter
 * splits 0.75 M Chinese characters a second, but English at 5 M a second against 90 M for a
 * scan, too slow for indexing). Each word is NFKC-normalised, lower-cased, checked against its
 * language's stop words, stemmed and accent-folded (see words.ts).
 *
 * The language: the caller's when it pins one (a knowledge base's setting); otherwise the
 * detector's guess when it is reliable, else the one the script suggests (Latin: English, so an
 * unsure short query is still stemmed like the English chunks most knowledge bases hold).
 */
export function createTextAnalyzer(options: TextAnalyzerOptions = {}): Analyzer {
  const { detector, cjk = 'bigrams' } = options;
  const supported = new Set(SUPPORTED_LANGUAGES);
  const analysisOf = createWordAnalysis();

  // One request asks the language of its query five or six times (embedding, keyword terms,
  // the gate, rerank, the answer): the last texts' languages are remembered. The detector reads
  // only a text's first SAMPLE_CHARS, so that part is the key.
  const detectSample = boundedMemo((sample: string): string => {
    const guess = detector?.(sample);
    if (guess?.reliable && supported.has(guess.language)) return guess.language;
    const byScript = languageOfScript(sample);
    return supported.has(byScript) ? byScript : 'und';
  }, RECENT_TEXTS);
  const detectLanguage = (text: string): string => detectSample(text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text);
  const resolve = (text: string, language?: string) =>
    language === undefined || language === 'auto' ? detectLanguage(text) : supported.has(language) ? language : 'und';

  /** Visits the offsets of every word of the text. */
  const forEachWord = (text: string, visit: (start: number, end: number) => void) =>
    scanRuns(text, (start, end, kind) => {
      if (kind === WORD) {
        if (end - start <= MAX_WORD_LENGTH) visit(start, end);
      } else {
        segmentRun(text, start, end, cjk, visit);
      }
    });

  return {
    version: ANALYZER_VERSION,
    languages: SUPPORTED_LANGUAGES,
    detectLanguage,
    terms(text, language) {
      const analyse = analysisOf(resolve(text, language));
      const out: string[] = [];
      forEachWord(text, (start, end) => {
        const { term, stop } = analyse(text.slice(start, end));
        if (!stop) out.push(term);
      });
      return out;
    },
    tokens(text, language) {
      const analyse = analysisOf(resolve(text, language));
      const out: Token[] = [];
      forEachWord(text, (start, end) => {
        // A literal of one shape, not a spread: tokens are the reranker's hot path.
        const { term, word, stop } = analyse(text.slice(start, end));
        out.push({ term, word, start, end, stop });
      });
      return out;
    },
  };
}

/** The analyzer with language detection: the detector's data is read here and parsed at its first use (about 0.1 s, once). */
export async function loadTextAnalyzer(options: Omit<TextAnalyzerOptions, 'detector'> = {}): Promise<Analyzer> {
  return createTextAnalyzer({ ...options, detector: await loadEldDetector() });
}
