import * as XLSX from '@e965/xlsx';
import { compoundFileOf, END, SECTOR } from './parsing-fixtures.ts';

/**
 * Legacy Office fixtures made here: .xls through SheetJS's BIFF8 writer, and for .doc (which no
 * JS library writes) a compound file whose WordDocument stream starts with a hand-set FIB.
 */

export type SheetSpec = { name: string; rows: unknown[][]; hidden?: boolean; merges?: XLSX.Range[]; formats?: Record<string, string> };

export function workbook(sheets: SheetSpec[]): XLSX.WorkBook {
  const book = XLSX.utils.book_new();
  for (const spec of sheets) {
    const sheet = XLSX.utils.aoa_to_sheet(spec.rows, { cellDates: true });
    if (spec.merges) sheet['!merges'] = spec.merges;
    for (const [address, format] of Object.entries(spec.formats ?? {})) sheet[address]!.z = format;
    XLSX.utils.book_append_sheet(book, sheet, spec.name);
  }
  book.Workbook = { Sheets: sheets.map((s) => ({ Hidden: s.hidden ? 1 : 0 })) };
  return book;
}

export const xls = (book: XLSX.WorkBook): Buffer => XLSX.write(book, { bookType: 'biff8', type: 'buffer' }) as Buffer;
export const xlsxOf = (book: XLSX.WorkBook): Buffer => XLSX.write(book, { bookType: 'xlsx', type: 'buffer' }) as Buffer;

/** A compound file whose WordDocument stream (4 KB, out of the mini stream) starts with this FIB. */
export function wordFile(fib: { magic?: number; flags?: number }): Buffer {
  const bytes = compoundFileOf({ fat: [0, END, 3, 4, 5, 6, 7, 8, 9, END], directoryStart: 1, streams: [{ name: 'WordDocument', start: 2, size: 4096 }], sectors: 9 });
  const at = 3 * SECTOR;
  bytes.writeUInt16LE(fib.magic ?? 0xa5ec, at);
  bytes.writeUInt16LE(fib.flags ?? 0, at + 0x0a);
  return bytes;
}
