import type { OcrModel } from '../../schemas/ocr-languages.ts';

/**
 * The languages OCR can read (schemas/ocr-languages.ts has the list and the ISO codes a client
 * may use). Russian is read with the Ukrainian model, whose alphabet lacks ё ы э ъ: those come
 * out as the nearest Ukrainian letters (ы as ь, э as є …).
 */
export { OCR_MODELS as OCR_LANGUAGES, toOcrModel as toOcrLanguage } from '../../schemas/ocr-languages.ts';
export type OcrLanguage = OcrModel;

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
