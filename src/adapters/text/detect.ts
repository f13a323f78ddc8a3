import { SAMPLE_CHARS } from '../../parsing/language/eld-database.ts';

export { loadEldDetector, SAMPLE_CHARS, type LanguageDetector, type LanguageGuess } from '../../parsing/language/eld-database.ts';

/** Scripts that, with nothing else to go on, all but name their language. */
const SCRIPTS: [RegExp, string][] = [
  [/\p{Script=Latin}/gu, 'en'],
  [/\p{Script=Cyrillic}/gu, 'ru'],
  [/\p{Script=Arabic}/gu, 'ar'],
  [/\p{Script=Han}/gu, 'zh'],
  [/\p{Script=Hangul}/gu, 'ko'],
  [/\p{Script=Thai}/gu, 'th'],
  [/\p{Script=Hebrew}/gu, 'he'],
  [/\p{Script=Greek}/gu, 'el'],
  [/\p{Script=Devanagari}/gu, 'hi'],
];
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * The language the text's commonest script suggests (Latin: English; Han with any kana:
 * Japanese), or 'und' for a text without letters. Only for when the detector is unsure.
 */
export function languageOfScript(text: string): string {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  let best = 'und';
  let most = 0;
  for (const [script, language] of SCRIPTS) {
    const n = sample.match(script)?.length ?? 0;
    if (n > most) [best, most] = [language, n];
  }
  return best === 'zh' && KANA.test(sample) ? 'ja' : best;
}
