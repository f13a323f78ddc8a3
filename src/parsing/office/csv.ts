import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { createBlockBuilder } from '../block-builder.ts';
import { decodeText } from '../language/decode.ts';
import { failingAs } from '../failures.ts';
import { looksLikeHeader, rowText } from '../table-text.ts';
import { MEDIA_TYPES, type Parser } from '../types.ts';

const DELIMITERS = [',', ';', '\t', '|'] as const;
const SAMPLE_LINES = 50;

/** CSV and TSV: one page, a row per block, the first row naming the columns when it reads like labels. */
export const parseCsv: Parser = async ({ path, limits, onProgress }) => {
  const { text } = decodeText(await readFile(path));
  const delimiter = sniffDelimiter(text);
  const records = await failingAs('CSV file', async () =>
    parse(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, skip_records_with_empty_values: true }) as string[][],
  );
  const [first = [], ...rest] = records;
  const header = looksLikeHeader(first, rest, false) ? first : undefined;
  const builder = createBlockBuilder();
  if (header) builder.add('table_row', rowText(header), 1);
  for (const record of header ? rest : records) builder.add('table_row', rowText(record, header), 1);
  onProgress?.(1, 1);
  return builder.finish({ mediaType: MEDIA_TYPES.csv, pageCount: 1, limits });
};

/**
 * The delimiter that splits the first lines into the same number of fields most consistently
 * (quoted fields removed first, so commas inside quotes do not vote).
 */
export function sniffDelimiter(text: string): string {
  const lines = text
    .split(/\r?\n/, SAMPLE_LINES * 2)
    .map((line) => line.replace(/"[^"]*"/g, '""'))
    .filter((line) => line.trim())
    .slice(0, SAMPLE_LINES);
  let best: { delimiter: string; score: number } = { delimiter: ',', score: 0 };
  for (const delimiter of DELIMITERS) {
    const counts = lines.map((line) => line.split(delimiter).length - 1);
    const mode = modeOf(counts.filter((c) => c > 0));
    if (!mode) continue;
    const consistent = counts.filter((c) => c === mode).length / counts.length;
    const score = consistent * 100 + Math.min(mode, 50);
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

function modeOf(values: number[]): number | undefined {
  const tally = new Map<number, number>();
  for (const v of values) tally.set(v, (tally.get(v) ?? 0) + 1);
  return [...tally.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];
}
