import { CYRILLIC_LANGUAGES, LATIN_LANGUAGES, scriptLanguages, toOcrLanguage, type OcrLanguage } from './ocr-languages.ts';
import type { OcrPage } from './ocr-tsv.ts';

/**
 * Which languages read a page when none were set. Most pages are English, so the English model
 * reads first and, when it is sure of what it read and the words are English, that is the
 * answer: one pass, as fast as before. A page it reads with low confidence goes to tesseract's
 * script detection (Cyrillic, Han, Hangul, Japanese … get their model); words of another Latin
 * language are read again with that language's model. A second reading replaces the first only
 * when its mean word confidence is higher.
 */

export type AutoReading = { page: OcrPage; languages: OcrLanguage[] };
export type AutoDeps = {
  read(languages: OcrLanguage[]): Promise<OcrPage>;
  /** The page's script as tesseract's OSD names it ('Latin', 'Cyrillic', 'Han' …), null when unsure. */
  detectScript(): Promise<string | null>;
  /** ISO 639-1 code of a text's language ('und' when unknown). */
  detectLanguage(text: string): Promise<string>;
};

/**
 * English models read Cyrillic or CJK pages as garbage at 30-60 % confidence and real English
 * scans at 85-95 %; under this the script is worth asking for.
 */
const SURE = 75;
/** Too few letters for a language detector to tell anything. */
const MIN_LETTERS = 20;

export function pageText(page: OcrPage): string {
  return page.paragraphs.map((p) => p.lines.map((l) => l.text).join(' ')).join('\n');
}

/** Mean word confidence (0-100): each line's mean weighted by its number of words. */
export function pageConfidence(page: OcrPage): number {
  let sum = 0;
  let words = 0;
  for (const line of page.paragraphs.flatMap((p) => p.lines)) {
    const n = line.text.split(' ').length;
    sum += line.confidence * n;
    words += n;
  }
  return words ? sum / words : 0;
}

/**
 * `previous`: the languages that read the page before. A page they read confidently, in their
 * main language, is done in one pass; anything else starts over from English.
 */
export async function readAuto(deps: AutoDeps, previous?: readonly OcrLanguage[]): Promise<AutoReading> {
  if (previous && previous.join('+') !== 'eng') {
    const again = await stillTheSame(deps, [...previous]);
    if (again) return again;
  }
  const first: AutoReading = { page: await deps.read(['eng']), languages: ['eng'] };
  const confidence = pageConfidence(first.page);
  if (confidence < SURE) {
    const languages = scriptLanguages(await deps.detectScript());
    if (languages) return cyrillicByWords(deps, better(first, { page: await deps.read(languages), languages }));
  }
  const text = pageText(first.page);
  if ((text.match(/\p{L}/gu)?.length ?? 0) < MIN_LETTERS) return first;
  const language = toOcrLanguage(await deps.detectLanguage(text));
  if (!language || language === 'eng' || !LATIN_LANGUAGES.includes(language)) return first;
  // English stays second: names, figures and quotations in English are common in any page.
  const languages: OcrLanguage[] = [language, 'eng'];
  return better(first, { page: await deps.read(languages), languages });
}

async function stillTheSame(deps: AutoDeps, languages: OcrLanguage[]): Promise<AutoReading | undefined> {
  const page = await deps.read(languages);
  if (pageConfidence(page) < SURE) return undefined;
  const text = pageText(page);
  if ((text.match(/\p{L}/gu)?.length ?? 0) < MIN_LETTERS) return { page, languages };
  const language = toOcrLanguage(await deps.detectLanguage(text));
  // Only the main language counts: an English page read by 'deu+eng' reads better with English alone.
  return language === languages[0] ? { page, languages } : undefined;
}

/** Russian and Ukrainian share a script; the words read with one model tell which language the page is in. */
async function cyrillicByWords(deps: AutoDeps, reading: AutoReading): Promise<AutoReading> {
  const read = reading.languages[0]!;
  if (!CYRILLIC_LANGUAGES.includes(read)) return reading;
  const language = toOcrLanguage(await deps.detectLanguage(pageText(reading.page)));
  if (!language || language === read || !CYRILLIC_LANGUAGES.includes(language)) return reading;
  return better(reading, { page: await deps.read([language]), languages: [language] });
}

const better = (a: AutoReading, b: AutoReading) => (pageConfidence(b.page) > pageConfidence(a.page) ? b : a);
