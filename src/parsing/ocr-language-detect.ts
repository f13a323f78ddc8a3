import { loadEldInstance } from './eld-database.ts';

/** ISO 639-1 code of a text's language ('und' when unknown). */
export type TextLanguageDetector = (text: string) => Promise<string>;

/** What the detector reads: a paragraph's worth decides as well as a page. */
const SAMPLE_CHARS = 512;

/**
 * ELD (medium database), as the analyzer uses it and loaded the same lean way
 * (src/adapters/text/detect.ts has its figures). Loaded on the first page that needs it, which a
 * parser that only ever reads English scans with confidence never pays.
 */
export function eldTextDetector(): TextLanguageDetector {
  let loaded: ReturnType<typeof loadEldInstance> | undefined;
  return async (text) => {
    loaded ??= loadEldInstance();
    return (await loaded).detect(text.slice(0, SAMPLE_CHARS)).language || 'und';
  };
}
