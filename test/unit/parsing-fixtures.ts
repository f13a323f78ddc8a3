/**
 * Builders for parser fixtures made inside the tests, so the always-run tests need no files from
 * outside the repository: a ZIP writer that can lie about sizes, a minimal OLE2 file, hand-written
 * OOXML parts, and a runner that parses a file the way the pipeline does (detect, then parse).
 */
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { parseCsv } from '../../src/parsing/office/csv.ts';
import { detectMediaType } from '../../src/parsing/detect.ts';
import { parseDocx } from '../../src/parsing/office/docx.ts';
import { parseHtml } from '../../src/parsing/web-mail/html.ts';
import { parseMarkdown } from '../../src/parsing/web-mail/markdown.ts';
import { parseText } from '../../src/parsing/text.ts';
import { parseXlsx } from '../../src/parsing/office/xlsx.ts';
import { parserFor } from '../../src/parsing/dispatch.ts';
import { DEFAULT_LIMITS, MEDIA_TYPES, type MediaType, type ParsedDocument, type ParseLimits, type Parser } from '../../src/parsing/types.ts';

const PARSERS: Partial<Record<MediaType, Parser>> = {
  [MEDIA_TYPES.docx]: parseDocx,
  [MEDIA_TYPES.xlsx]: parseXlsx,
  [MEDIA_TYPES.csv]: parseCsv,
  [MEDIA_TYPES.markdown]: parseMarkdown,
  [MEDIA_TYPES.text]: parseText,
  [MEDIA_TYPES.html]: parseHtml,
};

/** Detects by bytes and parses with the matching parser; a detection failure is thrown as its code. */
export async function parsePath(path: string, limits: ParseLimits = DEFAULT_LIMITS): Promise<ParsedDocument> {
  const fileName = basename(path);
  const detected = await detectMediaType(path, fileName);
  if (!detected.ok) throw Object.assign(new Error(detected.message), { code: detected.code });
  // The formats without an entry load through the pipeline's own dispatch (pptx, epub, eml).
  const parser = PARSERS[detected.mediaType] ?? (await parserFor(detected.mediaType));
  return parser({ path, fileName, mediaType: detected.mediaType, limits });
}

export function write(dir: string, name: string, bytes: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** The page of the first block whose text contains `needle`, or undefined. */
export const pageOf = (doc: ParsedDocument, needle: string) => doc.blocks.find((b) => b.text.includes(needle))?.page;
export const blockWith = (doc: ParsedDocument, needle: string) => doc.blocks.find((b) => b.text.includes(needle));

export type ZipEntry = { name: string; data: Buffer | string; store?: boolean; declaredSize?: number; encrypted?: boolean };

/** A ZIP written byte by byte; `declaredSize` lets a test claim any uncompressed size. */
export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = Buffer.from(entry.data);
    const body = entry.store ? raw : deflateRawSync(raw);
    const name = Buffer.from(entry.name);
    const fields = { method: entry.store ? 0 : 8, crc: crc32(raw) >>> 0, compressed: body.length, size: entry.declaredSize ?? raw.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.encrypted ? 1 : 0, 6);
    local.writeUInt16LE(fields.method, 8);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(fields.crc, 14);
    local.writeUInt32LE(fields.compressed, 18);
    local.writeUInt32LE(fields.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.encrypted ? 1 : 0, 8);
    central.writeUInt16LE(fields.method, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(fields.crc, 16);
    central.writeUInt32LE(fields.compressed, 20);
    central.writeUInt32LE(fields.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export const SECTOR = 512;
export const END = 0xfffffffe;

export type CompoundLayout = {
  /** FAT entries: sector n's next sector. Sector 0 is always the FAT itself. */
  fat: number[];
  directoryStart: number;
  /** Streams named in the directory (its first sector), each with its start sector and size. */
  streams: { name: string; start: number; size: number }[];
  /** Sectors after the FAT; the first is the directory's. */
  sectors: number;
  difat?: { start: number; count: number };
};

/** An OLE2 compound file whose chains may lie: loops, dangling sectors. */
export function compoundFileOf({ fat, directoryStart, streams, sectors, difat = { start: END, count: 0 } }: CompoundLayout): Buffer {
  const header = Buffer.alloc(SECTOR, 0);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(1, 0x2c);
  header.writeUInt32LE(directoryStart, 0x30);
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(END, 0x3c);
  header.writeUInt32LE(difat.start, 0x44);
  header.writeUInt32LE(difat.count, 0x48);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i === 0 ? 0 : 0xffffffff, 0x4c + i * 4);
  const fatSector = Buffer.alloc(SECTOR, 0xff);
  [0xfffffffd, ...fat.slice(1)].forEach((next, i) => fatSector.writeUInt32LE(next >>> 0, i * 4));
  const rest = Array.from({ length: sectors }, () => Buffer.alloc(SECTOR, 0));
  const directory = rest[0]!;
  [{ name: 'Root Entry', start: END, size: 0 }, ...streams].forEach((entry, i) => {
    const at = i * 128;
    const name = Buffer.from(`${entry.name}\0`, 'utf16le');
    name.copy(directory, at);
    directory.writeUInt16LE(name.length, at + 64);
    directory.writeUInt8(i === 0 ? 5 : 2, at + 66);
    directory.writeInt32LE(-1, at + 68);
    directory.writeInt32LE(-1, at + 72);
    directory.writeInt32LE(i === 0 && streams.length > 0 ? 1 : -1, at + 76);
    directory.writeUInt32LE(entry.start, at + 116);
    directory.writeUInt32LE(entry.size, at + 120);
  });
  return Buffer.concat([header, fatSector, ...rest]);
}

/** A one-sector-directory OLE2 compound file holding streams with these names (no data; at most three fit). */
export function compoundFile(names: string[]): Buffer {
  const streams = names.slice(0, 3).map((name) => ({ name, start: END, size: 0 }));
  return compoundFileOf({ fat: [0, END], directoryStart: 1, streams, sectors: 1 });
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** A minimal Word package around a hand-written body, for page-hint cases the docx library cannot produce. */
export function handmadeDocx(body: string, options: { pages?: number; extraParts?: ZipEntry[] } = {}): Buffer {
  const parts: ZipEntry[] = [
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    { name: 'word/document.xml', data: `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}<w:sectPr/></w:body></w:document>` },
  ];
  if (options.pages) parts.push({ name: 'docProps/app.xml', data: `<?xml version="1.0"?><Properties><Pages>${options.pages}</Pages></Properties>` });
  return zip([...parts, ...(options.extraParts ?? [])]);
}

/** One paragraph of hand-written WordprocessingML: `p('text')`, with optional properties and run content. */
export const p = (text: string, { props = '', before = '', after = '' } = {}) =>
  `<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ''}<w:r>${before}<w:t xml:space="preserve">${text}</w:t>${after}</w:r></w:p>`;
