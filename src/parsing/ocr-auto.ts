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
  /** ISO 639-1 code of a text's language ('und' when unknown or a guess the detector does not trust). */
  detectLanguage(text: string): Promise<string>;
  /** Two readings can run at once (two cores, each reading a few tens of MB): see readAuto. */
  concurrent?: boolean;
  /** Stops a reading started at once with another and found not needed. */
  abandon?(languages: OcrLanguage[]): void;
};

/**
 * English models read Cyrillic or CJK pages as garbage at 30-60 % confidence and real English
 * scans at 85-95 %; under this the script is worth asking for.
 */
const SURE = 75;
/** Too few letters for a language detector to tell anything. */
const MIN_LETTERS = 20;
const letterCount = (text: string) => text.match(/\p{L}/gu)?.length ?? 0;

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
  let english: Promise<OcrPage> | undefined;
  if (previous && previous.join('+') !== 'eng') {
    // The English reading is what a page that is not in the previous languages needs next: with
    // two cores it runs beside the first, so a change of language costs one reading's time, not two.
    if (deps.concurrent) (english = deps.read(['eng'])).catch(() => {});
    const again = await stillTheSame(deps, [...previous]);
    if (again) {
      if (english) deps.abandon?.(['eng']);
      return again;
    }
  }
  const first: AutoReading = { page: await (english ?? deps.read(['eng'])), languages: ['eng'] };
  const confidence = pageConfidence(first.page);
  if (confidence < SURE) {
    const languages = scriptLanguages(await deps.detectScript());
    if (languages) return cyrillicByWords(deps, better(first, { page: await deps.read(languages), languages }));
  }
  const languages = await latinLanguages(deps, first.page);
  if (!languages.length || (languages.length === 1 && languages[0] === 'eng')) return first;
  // English stays in: names, figures and quotations in English are common in any page.
  const set = languages.includes('eng') ? languages : [...languages, 'eng' as const];
  return better(first, { page: await deps.read(set), languages: set });
}

/** A language whose lines hold this share of a page's letters is read with its own model. */
const MIN_SHARE = 0.1;
/** The share of a page's letters in sentences of a language the detector is sure of. */
const MIN_KNOWN = 0.5;
/** tesseract reads every page with every model of its set: a few at most (as many as a client may pin). */
const MAX_LANGUAGES = 5;

/**
 * The Latin languages of a page, most letters first, each sentence told apart on its own: a page
 * may mix them (a multilingual notice, a bilingual form) even within a line, and reading it with
 * one model garbles the others' accents.
 */
async function latinLanguages(deps: AutoDeps, page: OcrPage): Promise<OcrLanguage[]> {
  const letters = new Map<OcrLanguage, number>();
  let total = 0;
  let known = 0;
  for (const sentence of page.paragraphs.flatMap((p) => sentencesOf(p.lines.map((l) => l.text).join(' ')))) {
    const count = letterCount(sentence);
    if (count < MIN_LETTERS) continue;
    total += count;
    const detected = await deps.detectLanguage(sentence);
    if (detected !== 'und') known += count;
    const language = toOcrLanguage(detected);
    if (language && LATIN_LANGUAGES.includes(language)) letters.set(language, (letters.get(language) ?? 0) + count);
  }
  // A page whose sentences the detector cannot place, most of them, is in a language it does not
  // know (Latin, a code listing …): the few it does place are chance resemblances, and a second
  // reading with their models costs a reading's time for nothing.
  if (known < MIN_KNOWN * total) return [];
  if (total === 0) {
    // Only short paragraphs (a form, a slide): the page's words together are worth a guess.
    const text = pageText(page);
    if (letterCount(text) < MIN_LETTERS) return [];
    const language = toOcrLanguage(await deps.detectLanguage(text));
    return language && LATIN_LANGUAGES.includes(language) ? [language] : [];
  }
  return [...letters]
    .filter(([, n]) => n >= MIN_SHARE * total)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_LANGUAGES)
    .map(([language]) => language);
}

/** A paragraph's sentences: a line may end one sentence and start the next, in another language. */
const sentencesOf = (text: string) => text.split(/(?<=[.!?])\s+/u);

async function stillTheSame(deps: AutoDeps, languages: OcrLanguage[]): Promise<AutoReading | undefined> {
  const page = await deps.read(languages);
  if (pageConfidence(page) < SURE) return undefined;
  const text = pageText(page);
  if (letterCount(text) < MIN_LETTERS) return { page, languages };
  const language = toOcrLanguage(await deps.detectLanguage(text));
  // Only the main language counts: an English page read by 'deu+eng' reads better with English
  // alone, and one read by 'eng+deu+fra' too, which English-first reading finds for itself.
  return language === languages[0] && language !== 'eng' ? { page, languages } : undefined;
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
