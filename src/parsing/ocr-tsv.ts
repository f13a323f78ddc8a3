/**
 * Tesseract's TSV output as paragraphs of lines. TSV is the cheapest structured output: one row
 * per word with its block, paragraph and line numbers and a confidence (0-100).
 */

export type OcrLine = { text: string; confidence: number };
export type OcrParagraph = { lines: OcrLine[] };
export type OcrPage = { paragraphs: OcrParagraph[] };

const WORD_LEVEL = '5';

export function readTsv(tsv: string): OcrPage {
  const paragraphs = new Map<string, Map<string, { words: string[]; confidence: number[] }>>();
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t');
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
  }
  return {
    paragraphs: [...paragraphs.values()].map((lines) => ({
      lines: [...lines.values()].map((l) => ({
        text: l.words.join(' '),
        confidence: l.confidence.reduce((a, b) => a + b, 0) / l.confidence.length,
      })),
    })),
  };
}
