import type { Cell, CellValue } from 'exceljs';
import { formatNumber } from './number-format.ts';

export type CellKind = 'text' | 'number' | 'date' | 'bool' | 'error';

export type CellView = {
  text: string;
  kind: CellKind;
  bold: boolean;
  /** The merge's top-left address when the cell is part of a merged range. */
  span?: string;
};

/**
 * What a reader sees in a cell: formulas give their cached result (we never recalculate),
 * dates become ISO dates, numbers are formatted as displayed, and a merged range's value shows
 * in every cell it covers.
 */
export function viewCell(cell: Cell): CellView | undefined {
  const source = cell.isMerged ? cell.master : cell;
  const shown = display(source.value, source.numFmt);
  if (!shown || !shown.text.trim()) return undefined;
  const view: CellView = { ...shown, bold: Boolean(source.font?.bold) || richTextIsBold(source.value) };
  if (cell.isMerged) view.span = source.address;
  return view;
}

function display(value: CellValue | undefined, format: string | undefined): { text: string; kind: CellKind } | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return { text: formatNumber(value, format), kind: 'number' };
  // A string stays text even when it reads as a number: the author typed it as text (a year as a label, "  —").
  if (typeof value === 'string') return { text: value, kind: 'text' };
  if (typeof value === 'boolean') return { text: value ? 'TRUE' : 'FALSE', kind: 'bool' };
  if (value instanceof Date) return { text: isoDate(value), kind: 'date' };
  if ('richText' in value) return { text: value.richText.map((run) => run.text).join(''), kind: 'text' };
  if ('error' in value) return { text: String(value.error), kind: 'error' };
  if ('formula' in value || 'sharedFormula' in value) return display(value.result as CellValue | undefined, format);
  if ('hyperlink' in value) {
    const text = value.text as unknown;
    return display(typeof text === 'string' || (text && typeof text === 'object') ? (text as CellValue) : value.hyperlink, format);
  }
  return undefined;
}

/** exceljs builds dates in UTC from Excel's serial numbers; serials below 1 are times of day. */
export function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  const time = iso.slice(11, 19).replace(/:00$/, '');
  if (iso.startsWith('1899-12-30') || iso.startsWith('1899-12-31')) return time;
  return time === '00:00' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${time}`;
}

function richTextIsBold(value: CellValue | undefined): boolean {
  if (!value || typeof value !== 'object' || !('richText' in value)) return false;
  const runs = value.richText.filter((run) => run.text.trim());
  return runs.length > 0 && runs.every((run) => run.font?.bold);
}
