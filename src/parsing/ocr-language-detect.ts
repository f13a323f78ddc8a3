/** ISO 639-1 code of a text's language ('und' when unknown). */
export type TextLanguageDetector = (text: string) => Promise<string>;

/** What the detector reads: a paragraph's worth decides as well as a page. */
const SAMPLE_CHARS = 512;

/**
 * ELD (medium database), as the analyzer uses it (src/adapters/text/detect.ts has its figures).
 * Loaded on the first page that needs it: its data costs about 0.6 s and 45 MB, which a parser
 * thread that only ever reads English scans with confidence never pays.
 */
export function eldTextDetector(): TextLanguageDetector {
  let loaded: Promise<typeof import('eld/medium').eld> | undefined;
  return async (text) => {
    loaded ??= import('eld/medium').then((m) => m.eld);
    return (await loaded).detect(text.slice(0, SAMPLE_CHARS)).language || 'und';
  };
}
