import { normaliseBox, type LineBox } from '../domain/document/box.ts';

/**
 * Tesseract's TSV output as paragraphs of lines. TSV is the cheapest structured output: one row
 * per word with its block, paragraph and line numbers and a confidence (0-100).
 */

/** `box`: the line's words' union, as fractions of the image (see Box). */
export type OcrLine = { text: string; confidence: number; box?: Omit<LineBox, 'text'> };
export type OcrParagraph = { lines: OcrLine[] };
export type OcrPage = { paragraphs: OcrParagraph[] };

const PAGE_LEVEL = '1';
const WORD_LEVEL = '5';

type Rect = { x0: number; y0: number; x1: number; y1: number };
const union = (a: Rect | undefined, b: Rect): Rect => (a ? { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) } : b);

export function readTsv(tsv: string): OcrPage {
  const paragraphs = new Map<string, Map<string, { words: string[]; confidence: number[]; rect?: Rect }>>();
  let page = { width: 0, height: 0 };
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t');
    if (cols[0] === PAGE_LEVEL && cols.length >= 10) page = { width: Number(cols[8]) || 0, height: Number(cols[9]) || 0 };
    if (cols[0] !== WORD_LEVEL || cols.length < 12) continue;
    const text = cols.slice(11).join('\t').trim();
    if (!text) continue;
    const paragraphKey = `${cols[1]}.${cols[2]}.${cols[3]}`;
    const lines = paragraphs.get(paragraphKey) ?? new Map();
    paragraphs.set(paragraphKey, lines);
    const line = lines.get(cols[4]!) ?? { words: [], confidence: [] };
    lines.set(cols[4]!, line);
    line.words.push(text);
    line.confidence.push(Number(cols[10]) || 0);
    const [left, top, width, height] = cols.slice(6, 10).map(Number) as [number, number, number, number];
    if (width > 0 && height > 0) line.rect = union(line.rect, { x0: left, y0: top, x1: left + width, y1: top + height });
  }
  return {
    paragraphs: [...paragraphs.values()].map((lines) => ({
      lines: [...lines.values()].map((l) => ({
        text: l.words.join(' '),
        confidence: l.confidence.reduce((a, b) => a + b, 0) / l.confidence.length,
        ...(l.rect && page.width > 0 && page.height > 0 && { box: normaliseBox(l.rect, page.width, page.height) }),
      })),
    })),
  };
}
