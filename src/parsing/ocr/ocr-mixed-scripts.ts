import { scriptLanguages, type OcrLanguage } from './ocr-languages.ts';
import type { Region } from './ocr-region.ts';
import { pageOfWords, type OcrPage, type OcrWord } from './ocr-tsv.ts';

/**
 * A page that mixes scripts line by line (English lines between Korean, Chinese or Russian ones)
 * read line by line. The English model reads its own lines at 90-96 % confidence and the others
 * as noise at 0-55 % ("Hf EME oid Sof 2AE LC" for a Korean line), and a single reading of the
 * page with either model garbles the other's lines. So the lines the English reading doubts are
 * cut out and stacked into one image (ocr-strips.ts); tesseract's script detection names their
 * script from that image alone, they are read again with that script's model (English second,
 * for names and figures within them), and each keeps whichever reading is the more confident.
 * Lines still doubtful after that (a page with Korean and Russian lines) get a second round.
 * Only the doubted lines are read again: a page the English model reads confidently throughout
 * costs what it did.
 */

export type LineDeps = {
  /** The script of some parts of the page, stacked, as tesseract's OSD names it; null when unsure. */
  detectScriptOf(regions: Region[]): Promise<string | null>;
  /** Some parts of the page read together with these models: each part's words, placed on the page. */
  readParts(languages: OcrLanguage[], regions: Region[]): Promise<OcrWord[][]>;
};

/** Under this a line's English reading is doubted: the English model reads its own lines at 90+. */
const LINE_SURE = 65;
/** A page is mixed when lines the English model is sure of (75+) hold this share of its words. */
const MIN_SURE_SHARE = 0.2;
const PAGE_SURE = 75;
/** A doubted line this much wider than tall at least: a page number or a speck is not worth a reading. */
const MIN_LINE_ASPECT = 3;
/** Rounds of script detection: two scripts besides English on a page at most. */
const ROUNDS = 2;

/** `wide`: the line's words span at least MIN_LINE_ASPECT times its height. */
type Line = { key: string; words: OcrWord[]; confidence: number; region: Region; wide: boolean };

const meanConfidence = (words: readonly OcrWord[]) => words.reduce((n, w) => n + w.confidence, 0) / Math.max(1, words.length);

function pageLines(page: OcrPage): Line[] {
  const boxes = page.boxes!;
  const byKey = new Map<string, OcrWord[]>();
  for (const w of boxes.words) byKey.set(w.line, [...(byKey.get(w.line) ?? []), w]);
  return [...byKey].map(([key, words]) => {
    const top = Math.min(...words.map((w) => w.top));
    const box = boxes.lines.get(key) ?? { top, height: Math.max(...words.map((w) => w.top + w.height)) - top };
    // A little above and below (accents, descenders), more to the sides: the English model may
    // have left a foreign line's first or last letters out of its words.
    const padY = Math.ceil(box.height * 0.2);
    const x0 = Math.min(...words.map((w) => w.left));
    const x1 = Math.max(...words.map((w) => w.left + w.width));
    const left = Math.max(0, x0 - 2 * box.height);
    const right = Math.min(boxes.width, x1 + 2 * box.height);
    const y0 = Math.max(0, box.top - padY);
    const y1 = Math.min(boxes.height, box.top + box.height + padY);
    return { key, words, confidence: meanConfidence(words), region: { left, top: y0, width: right - left, height: y1 - y0 }, wide: x1 - x0 >= MIN_LINE_ASPECT * box.height };
  });
}

/** The lines worth reading with another script's model, when the page is mixed; none otherwise. */
export function doubtedLines(page: OcrPage): Line[] {
  if (!page.boxes?.width || !page.boxes.height) return [];
  const lines = pageLines(page);
  const total = lines.reduce((n, l) => n + l.words.length, 0);
  const sure = lines.filter((l) => l.confidence >= PAGE_SURE).reduce((n, l) => n + l.words.length, 0);
  if (sure < MIN_SURE_SHARE * total) return [];
  return lines.filter((l) => l.confidence < LINE_SURE && l.wide);
}

/**
 * The page with its doubted lines read in their own script, and the models that read them, or
 * undefined when no line read better.
 */
export async function readMixedScripts(deps: LineDeps, page: OcrPage): Promise<{ page: OcrPage; models: OcrLanguage[] } | undefined> {
  let pending = doubtedLines(page);
  const replaced = new Map<string, OcrWord[]>();
  const used: OcrLanguage[] = [];
  for (let round = 0; round < ROUNDS && pending.length; round++) {
    const script = scriptLanguages(await deps.detectScriptOf(pending.map((l) => l.region)));
    if (!script || used.includes(script[0]!)) break;
    used.push(...script);
    const readings = await deps.readParts([...script, 'eng'], pending.map((l) => l.region));
    const still: Line[] = [];
    pending.forEach((line, i) => {
      const words = readings[i] ?? [];
      const confidence = meanConfidence(words);
      if (words.length && confidence > line.confidence) replaced.set(line.key, words.map((w) => ({ ...w, line: line.key })));
      if (confidence < LINE_SURE) still.push(words.length && confidence > line.confidence ? { ...line, confidence } : line);
    });
    pending = still;
  }
  if (!replaced.size) return undefined;
  return { page: withLinesReplaced(page, replaced), models: used };
}

/** `page` with the words of some lines (by key) replaced, in the place of the line's first word. */
function withLinesReplaced(page: OcrPage, replaced: ReadonlyMap<string, OcrWord[]>): OcrPage {
  const boxes = page.boxes!;
  const placed = new Set<string>();
  const words = boxes.words.flatMap((w) => {
    const replacement = replaced.get(w.line);
    if (!replacement) return [w];
    if (placed.has(w.line)) return [];
    placed.add(w.line);
    return replacement;
  });
  return pageOfWords({ ...boxes, words });
}
