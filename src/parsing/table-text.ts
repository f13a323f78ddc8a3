import { normalizeText } from './language/text-normalize.ts';

/**
 * How every parser writes a table row as text. A row alone must still say what its numbers
 * mean once the chunker has cut it away from its table, so rows under a header repeat the
 * header names: "Region: West; Sales: 12".
 */
export function rowText(cells: readonly (string | undefined)[], header?: readonly (string | undefined)[]): string {
  const parts: string[] = [];
  cells.forEach((raw, column) => {
    const value = normalizeText(raw ?? '');
    if (!value) return;
    const name = header && normalizeText(header[column] ?? '');
    parts.push(name && name !== value ? `${name}: ${value}` : value);
  });
  return parts.join(header ? '; ' : ' | ');
}

/** Amounts, counts, percentages, dates as digits: what data rows hold and header rows do not. */
export function looksNumeric(raw: string): boolean {
  const text = raw.trim();
  return text !== '' && /^[-+−(]?\s*[$€£¥]?\s*\d[\d\s,.'/:-]*\s*(%|‰)?\)?$/.test(text);
}

/**
 * A first row reads as a header when its cells are all filled with distinct, short labels (not
 * numbers) and, where the format gives no better sign, the body below has numbers in it.
 */
export function looksLikeHeader(first: readonly string[], body: readonly (readonly string[])[], needNumbersBelow: boolean): boolean {
  const labels = first.map((c) => normalizeText(c));
  if (labels.length < 2 || body.length === 0) return false;
  if (labels.some((l) => l === '' || l.length > 80 || looksNumeric(l))) return false;
  if (new Set(labels).size !== labels.length) return false;
  return !needNumbersBelow || body.some((row) => row.some(looksNumeric));
}
