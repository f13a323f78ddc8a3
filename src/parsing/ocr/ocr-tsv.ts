import { normaliseBox, type LineBox } from '../../domain/document/box.ts';

/**
 * Tesseract's TSV output as paragraphs of lines, and as words placed on the page. TSV is the
 * cheapest structured output: one row per word with its block, paragraph and line numbers, its
 * box in pixels and a confidence (0-100), one row per line with the line's box, and one row for
 * the page with the image's size.
 */

/** `box`: the line's words' union, as fractions of the image (see Box). */
export type OcrLine = { text: string; confidence: number; box?: Omit<LineBox, 'text'> };
export type OcrParagraph = { lines: OcrLine[] };
/** A word's box in pixels, top-down; `line` names the tesseract line it belongs to. */
export type OcrWord = { text: string; left: number; top: number; width: number; height: number; confidence: number; line: string };
/** A line's extent: the height of its letters, ascenders and descenders included. */
export type OcrLineBox = { top: number; height: number };
export type OcrBoxes = { words: OcrWord[]; lines: Map<string, OcrLineBox>; width: number; height: number };
export type OcrPage = {
  /** In tesseract's order. */
  paragraphs: OcrParagraph[];
  /** Where the words are; absent when an engine gives text only. */
  boxes?: OcrBoxes;
};

const PAGE_LEVEL = '1';
const LINE_LEVEL = '4';
const WORD_LEVEL = '5';

type Rect = { x0: number; y0: number; x1: number; y1: number };
const union = (a: Rect | undefined, b: Rect): Rect => (a ? { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) } : b);

export function readTsv(tsv: string): OcrPage {
  const boxes: OcrBoxes = { words: [], lines: new Map(), width: 0, height: 0 };
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t');
    if (cols.length < 12) continue;
    const [left, top, width, height] = cols.slice(6, 10).map(Number) as [number, number, number, number];
    const lineKey = `${cols[2]}.${cols[3]}.${cols[4]}`;
    if (cols[0] === PAGE_LEVEL) Object.assign(boxes, { width, height });
    if (cols[0] === LINE_LEVEL) boxes.lines.set(lineKey, { top, height });
    if (cols[0] !== WORD_LEVEL) continue;
    const text = cols.slice(11).join('\t').trim();
    if (!text) continue;
    boxes.words.push({ text, left, top, width, height, confidence: Number(cols[10]) || 0, line: lineKey });
  }
  return pageOfWords(boxes);
}

/** The paragraph a word was read in: its line key (`block.paragraph.line`) without the line. */
export const paragraphOf = (word: OcrWord) => word.line.slice(0, word.line.lastIndexOf('.'));

/**
 * Paragraphs of lines from placed words, in their order: a word's line key is tesseract's
 * `block.paragraph.line`, so the words of one paragraph share its first two parts.
 */
export function pageOfWords(boxes: OcrBoxes): OcrPage {
  const paragraphs = new Map<string, Map<string, { words: string[]; confidence: number[]; rect?: Rect }>>();
  for (const word of boxes.words) {
    const paragraph = paragraphOf(word);
    const lines = paragraphs.get(paragraph) ?? new Map();
    paragraphs.set(paragraph, lines);
    const line = lines.get(word.line) ?? { words: [], confidence: [] };
    lines.set(word.line, line);
    line.words.push(word.text);
    line.confidence.push(word.confidence);
    if (word.width > 0 && word.height > 0) line.rect = union(line.rect, { x0: word.left, y0: word.top, x1: word.left + word.width, y1: word.top + word.height });
  }
  return {
    paragraphs: [...paragraphs.values()].map((lines) => ({
      lines: [...lines.values()].map((l) => ({
        text: l.words.join(' '),
        confidence: l.confidence.reduce((a, b) => a + b, 0) / l.confidence.length,
        ...(l.rect && boxes.width > 0 && boxes.height > 0 && { box: normaliseBox(l.rect, boxes.width, boxes.height) }),
      })),
    })),
    boxes,
  };
}
