import { loadEldDetector, type LanguageDetector } from '../language/eld-database.ts';

/** ISO 639-1 code of a text's language ('und' when unknown, or when the guess is not reliable). */
export type TextLanguageDetector = (text: string) => Promise<string>;

/**
 * The analyzer's detector (eld-database.ts), loaded on the first page that needs it, which a
 * parser that only ever reads English scans with confidence never pays.
 */
export function eldTextDetector(): TextLanguageDetector {
  let loaded: Promise<LanguageDetector> | undefined;
  return async (text) => {
    const guess = (await (loaded ??= loadEldDetector()))(text);
    return guess.reliable ? guess.language : 'und';
  };
}
