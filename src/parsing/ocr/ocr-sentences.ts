import { pageOfWords, paragraphOf, type OcrPage, type OcrWord } from './ocr-tsv.ts';

/**
 * A page read in several languages, sentence by sentence. tesseract, given a set of models,
 * prefers its first ones word by word: on a page in six languages one order of the same models
 * read Spanish accents as German umlauts, another German ones as Spanish. So a page whose
 * sentences are in several languages is read once per language, that language's model first,
 * and each sentence is taken from its own language's reading.
 */

/** A sentence of a page, and the words it was read from (none for an engine that gives text only). */
export type PageSentence = { text: string; words: OcrWord[] };

const ENDS_SENTENCE = /[.!?]$/u;

/** A page's sentences in reading order: a line may end one sentence and start the next, in another language. */
export function pageSentences(page: OcrPage): PageSentence[] {
  if (!page.boxes) {
    return page.paragraphs.flatMap((p) => p.lines.map((l) => l.text).join(' ').split(/(?<=[.!?])\s+/u)).map((text) => ({ text, words: [] }));
  }
  const sentences: PageSentence[] = [];
  let current: OcrWord[] = [];
  let paragraph: string | undefined;
  const close = () => {
    if (current.length) sentences.push({ text: current.map((w) => w.text).join(' '), words: current });
    current = [];
  };
  for (const word of page.boxes.words) {
    if (paragraphOf(word) !== paragraph) close();
    paragraph = paragraphOf(word);
    current.push(word);
    if (ENDS_SENTENCE.test(word.text)) close();
  }
  close();
  return sentences;
}

const centre = (w: OcrWord) => ({ x: w.left + w.width / 2, y: w.top + w.height / 2 });

/**
 * `base` with each given sentence's words replaced by what `from` read in the same place: on
 * each line, the words of `from` whose centres fall within the sentence's span of that line.
 * A reading may cut a span into words differently, so spans are replaced whole; a span where
 * `from` read nothing keeps the base's words.
 */
export function withSentencesFrom(base: OcrPage, replaced: readonly { sentence: PageSentence; from: OcrPage }[]): OcrPage {
  if (!base.boxes) return base;
  const replacement = new Map<OcrWord, OcrWord[]>();
  const dropped = new Set<OcrWord>();
  for (const { sentence, from } of replaced) {
    for (const span of lineSpans(sentence.words)) {
      const found = (from.boxes?.words ?? []).filter((w) => within(centre(w), span));
      if (!found.length) continue;
      replacement.set(span.words[0]!, found.map((w) => ({ ...w, line: span.words[0]!.line })));
      for (const w of span.words.slice(1)) dropped.add(w);
    }
  }
  if (!replacement.size) return base;
  const words = base.boxes.words.flatMap((w) => replacement.get(w) ?? (dropped.has(w) ? [] : [w]));
  return pageOfWords({ ...base.boxes, words });
}

type Span = { words: OcrWord[]; x0: number; x1: number; y0: number; y1: number };

function lineSpans(words: readonly OcrWord[]): Span[] {
  const spans = new Map<string, Span>();
  for (const w of words) {
    const span = spans.get(w.line);
    if (!span) {
      spans.set(w.line, { words: [w], x0: w.left, x1: w.left + w.width, y0: w.top, y1: w.top + w.height });
      continue;
    }
    span.words.push(w);
    span.x0 = Math.min(span.x0, w.left);
    span.x1 = Math.max(span.x1, w.left + w.width);
    span.y0 = Math.min(span.y0, w.top);
    span.y1 = Math.max(span.y1, w.top + w.height);
  }
  return [...spans.values()];
}

const within = (p: { x: number; y: number }, s: Span) => p.x >= s.x0 && p.x <= s.x1 && p.y >= s.y0 && p.y <= s.y1;
