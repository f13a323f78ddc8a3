import { CYRILLIC_LANGUAGES, LATIN_LANGUAGES, scriptLanguages, toOcrLanguage, type OcrLanguage } from './ocr-languages.ts';
import { readMixedScripts, type LineDeps } from './ocr-mixed-scripts.ts';
import { regionAround, type Region } from './ocr-region.ts';
import { pageSentences, withSentencesFrom, type PageSentence } from './ocr-sentences.ts';
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
  /** A region: only that part of the page need be read (words placed on the whole page still). */
  read(languages: OcrLanguage[], region?: Region): Promise<OcrPage>;
  /** The page's script as tesseract's OSD names it ('Latin', 'Cyrillic', 'Han' …), null when unsure. */
  detectScript(): Promise<string | null>;
  /** ISO 639-1 code of a text's language ('und' when unknown or a guess the detector does not trust). */
  detectLanguage(text: string): Promise<string>;
  /** Two readings can run at once (two readers on two cores, ocr.ts): see readAuto. */
  concurrent?: boolean;
  /** Stops a reading started at once with another and found not needed. */
  abandon?(languages: OcrLanguage[]): void;
} & Partial<LineDeps>;

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
  // A page of English lines and lines in another script: those lines alone are read again
  // (ocr-mixed-scripts.ts). The next page starts from English, as most of this one was.
  const mixed = await linesInOtherScripts(deps, first.page);
  if (mixed) return { page: mixed, languages: ['eng'] };
  const confidence = pageConfidence(first.page);
  if (confidence < SURE) {
    const languages = scriptLanguages(await deps.detectScript());
    if (languages) return cyrillicByWords(deps, better(first, { page: await deps.read(languages), languages }));
  }
  const { languages, placed } = await latinLanguages(deps, first.page);
  if (!languages.length || (languages.length === 1 && languages[0] === 'eng')) return first;
  const others = languages.filter((language) => language !== 'eng');
  if (others.length > 1 && first.page.boxes) return bySentence(deps, first, others, placed);
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

type Placed = { sentence: PageSentence; language: OcrLanguage };

/**
 * The Latin languages of a page, most letters first, each sentence told apart on its own: a page
 * may mix them (a multilingual notice, a bilingual form) even within a line, and reading it with
 * one model garbles the others' accents. `placed`: the sentences in a Latin language.
 */
async function latinLanguages(deps: AutoDeps, page: OcrPage): Promise<{ languages: OcrLanguage[]; placed: Placed[] }> {
  const letters = new Map<OcrLanguage, number>();
  const placed: Placed[] = [];
  let total = 0;
  let known = 0;
  for (const sentence of pageSentences(page)) {
    const count = letterCount(sentence.text);
    if (count < MIN_LETTERS) continue;
    total += count;
    const detected = await deps.detectLanguage(sentence.text);
    if (detected !== 'und') known += count;
    const language = toOcrLanguage(detected);
    if (!language || !LATIN_LANGUAGES.includes(language)) continue;
    letters.set(language, (letters.get(language) ?? 0) + count);
    placed.push({ sentence, language });
  }
  // A page whose sentences the detector cannot place, most of them, is in a language it does not
  // know (Latin, a code listing …): the few it does place are chance resemblances, and a second
  // reading with their models costs a reading's time for nothing.
  if (known < MIN_KNOWN * total) return { languages: [], placed: [] };
  if (total === 0) {
    // Only short paragraphs (a form, a slide): the page's words together are worth a guess.
    const text = pageText(page);
    if (letterCount(text) < MIN_LETTERS) return { languages: [], placed: [] };
    const language = toOcrLanguage(await deps.detectLanguage(text));
    return { languages: language && LATIN_LANGUAGES.includes(language) ? [language] : [], placed: [] };
  }
  const languages = [...letters]
    .filter(([, n]) => n >= MIN_SHARE * total)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_LANGUAGES)
    .map(([language]) => language);
  return { languages, placed };
}

/**
 * A page in several languages besides English, read once per language (that language's model
 * first, English second) and taken sentence by sentence from its own language's reading
 * (ocr-sentences.ts says why); English and unplaced sentences keep the English reading. Each
 * language needs only the part of the page its sentences are in. With two readers, two
 * languages are read at a time.
 */
async function bySentence(deps: AutoDeps, first: AutoReading, languages: OcrLanguage[], placed: Placed[]): Promise<AutoReading> {
  const readings = new Map<OcrLanguage, OcrPage>();
  const boxes = first.page.boxes!;
  const regionOf = (language: OcrLanguage) =>
    regionAround(placed.filter((p) => p.language === language).flatMap((p) => p.sentence.words), boxes.width, boxes.height);
  const read = async (language: OcrLanguage) => void readings.set(language, await deps.read([language, 'eng'], regionOf(language)));
  const atOnce = deps.concurrent ? 2 : 1;
  for (let i = 0; i < languages.length; i += atOnce) await Promise.all(languages.slice(i, i + atOnce).map(read));
  const replaced = placed.flatMap(({ sentence, language }) => (readings.has(language) ? [{ sentence, from: readings.get(language)! }] : []));
  // The next page starts from English again: were it read with all these models at once first,
  // that reading would be thrown away whenever it too is in several languages.
  return { page: withSentencesFrom(first.page, replaced), languages: ['eng'] };
}

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

async function linesInOtherScripts(deps: AutoDeps, page: OcrPage): Promise<OcrPage | undefined> {
  const { detectScriptOf, readParts } = deps;
  return detectScriptOf && readParts ? (await readMixedScripts({ detectScriptOf, readParts }, page))?.page : undefined;
}

const better = (a: AutoReading, b: AutoReading) => (pageConfidence(b.page) > pageConfidence(a.page) ? b : a);
