import { z } from 'zod';

/**
 * The languages OCR reads, as tesseract names its models (one npm package each,
 * @tesseract.js-data/<code>; Russian, which npm lacks, from vendor/tessdata-rus), and the ISO
 * 639-1 codes a client may use instead.
 */
export const OCR_MODELS = ['eng', 'deu', 'fra', 'spa', 'ita', 'por', 'rus', 'ukr', 'chi_sim', 'jpn', 'kor'] as const;
export type OcrModel = (typeof OCR_MODELS)[number];

export const OCR_ISO_CODES: Record<string, OcrModel> = {
  en: 'eng', de: 'deu', fr: 'fra', es: 'spa', it: 'ita', pt: 'por', uk: 'ukr', ru: 'rus', zh: 'chi_sim', ja: 'jpn', ko: 'kor',
};

/** A tesseract code or an ISO 639-1 code as the model that reads it; undefined when none does. */
export function toOcrModel(code: string): OcrModel | undefined {
  const lower = code.trim().toLowerCase();
  return (OCR_MODELS as readonly string[]).includes(lower) ? (lower as OcrModel) : OCR_ISO_CODES[lower];
}

const codes = [...OCR_MODELS, ...Object.keys(OCR_ISO_CODES)].join(', ');

/** `ocr.languages`: the models to read scans with, in order (the first is the main one); unset, each page's languages are detected. */
export const OcrLanguages = z
  .array(
    z.string().refine((code) => toOcrModel(code) !== undefined, { message: `must be one of the OCR languages: ${codes}` }),
  )
  .min(1)
  .max(5)
  .meta({
    description:
      `Languages to OCR scanned pages and images in (tesseract codes or ISO 639-1: ${codes}). ` +
      'Unset: the script and language are detected per page. Several languages cost time on every page; the first is the main one.',
  });

export const OcrSettings = z.strictObject({ languages: OcrLanguages });
