import type { OcrModel } from '../../../schemas/ocr-languages.ts';

/** The languages OCR can read (schemas/ocr-languages.ts has the list and the ISO codes a client may use). */
export { OCR_MODELS as OCR_LANGUAGES, toOcrModel as toOcrLanguage } from '../../../schemas/ocr-languages.ts';
export type OcrLanguage = OcrModel;

/** No repeats, order kept: tesseract treats the first language as the page's main one. */
export const languageSet = (languages: readonly OcrLanguage[]): OcrLanguage[] => [...new Set(languages)];

/** Languages of the Latin script, told apart by the words OCR reads with the English model. */
export const LATIN_LANGUAGES: readonly OcrLanguage[] = ['eng', 'deu', 'fra', 'spa', 'ita', 'por'];
/** Cyrillic pages are read as Russian first; Ukrainian words (і ї є) send them to the Ukrainian model. */
export const CYRILLIC_LANGUAGES: readonly OcrLanguage[] = ['rus', 'ukr'];

/**
 * The models for a script as tesseract's orientation and script detection names it. Latin is
 * absent on purpose: which Latin language a page is in is told by its words, not its letters.
 */
const SCRIPTS: Record<string, OcrLanguage[]> = {
  Cyrillic: ['rus'],
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
