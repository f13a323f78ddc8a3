/**
 * The languages OCR can read, as tesseract names its models (one npm package each,
 * @tesseract.js-data/<code>), and the ISO 639-1 codes a client may use instead.
 * There is no Russian model on npm: Russian is read with the Ukrainian one, whose alphabet
 * shares all but ё ы э ъ (those come out as the nearest Ukrainian letters).
 */
export const OCR_LANGUAGES = ['eng', 'deu', 'fra', 'spa', 'ita', 'por', 'ukr', 'chi_sim', 'jpn', 'kor'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];

const ISO: Record<string, OcrLanguage> = {
  en: 'eng', de: 'deu', fr: 'fra', es: 'spa', it: 'ita', pt: 'por', uk: 'ukr', ru: 'ukr', rus: 'ukr',
  zh: 'chi_sim', ja: 'jpn', ko: 'kor',
};

/** A tesseract code or an ISO 639-1 code as the model that reads it; undefined when none does. */
export function toOcrLanguage(code: string): OcrLanguage | undefined {
  const lower = code.trim().toLowerCase();
  if ((OCR_LANGUAGES as readonly string[]).includes(lower)) return lower as OcrLanguage;
  return ISO[lower];
}

/** Every code a client may name: for validation messages. */
export const OCR_LANGUAGE_CODES: readonly string[] = [...OCR_LANGUAGES, ...Object.keys(ISO)];

/** No repeats, order kept: tesseract treats the first language as the page's main one. */
export const languageSet = (languages: readonly OcrLanguage[]): OcrLanguage[] => [...new Set(languages)];

/** Languages of the Latin script, told apart by the words OCR reads with the English model. */
export const LATIN_LANGUAGES: readonly OcrLanguage[] = ['eng', 'deu', 'fra', 'spa', 'ita', 'por'];

/**
 * The models for a script as tesseract's orientation and script detection names it. Latin is
 * absent on purpose: which Latin language a page is in is told by its words, not its letters.
 */
const SCRIPTS: Record<string, OcrLanguage[]> = {
  Cyrillic: ['ukr'],
  Han: ['chi_sim'],
  HanS: ['chi_sim'],
  HanT: ['chi_sim'],
  Hangul: ['kor'],
  Korean: ['kor'],
  Japanese: ['jpn'],
  Hiragana: ['jpn'],
  Katakana: ['jpn'],
};
export const scriptLanguages = (script: string | null | undefined): OcrLanguage[] | undefined => (script ? SCRIPTS[script] : undefined);
