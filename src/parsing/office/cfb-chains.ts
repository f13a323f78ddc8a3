import { CFB_SIGNATURE } from './cfb.ts';
import { ParseFailure } from '../types.ts';

/** Sector numbers at or above this end a chain (end of chain, free, FAT and DIFAT markers). */
const MAX_REGULAR_SECTOR = 0xfffffffa;
const HEADER_DIFAT_SLOTS = 109;
const ENTRY_BYTES = 128;
const STREAM = 2;
const ROOT = 5;

const corrupt = (why: string) => new ParseFailure('corrupt', `The file is a damaged OLE2 (legacy Office) file: ${why}.`);

/**
 * Checks every sector chain of an OLE2 compound file before a library reads it. word-extractor and
 * SheetJS follow the chains the file declares, and a chain that loops (A → B → A) makes them
 * allocate until the heap is gone. In a sound file each sector belongs to one chain at most, so
 * the walk claims sectors as it goes: a loop, a shared sector or a sector past the end fails at
 * once, and the whole check is linear in the file's size.
 */
export function assertCompoundChains(bytes: Buffer): void {
  if (bytes.length < 512 || !bytes.subarray(0, 8).equals(CFB_SIGNATURE)) throw corrupt('no OLE2 header');
  const sectorSize = 2 ** bytes.readUInt16LE(0x1e);
  if (sectorSize !== 512 && sectorSize !== 4096) throw corrupt('bad sector size');
  const sectorCount = Math.floor((bytes.length - sectorSize) / sectorSize);
  const sector = (n: number) => bytes.subarray((n + 1) * sectorSize, (n + 2) * sectorSize);
  const perSector = sectorSize / 4;

  const fat = table(fatSectors(bytes, sectorCount, perSector).map(sector));
  const claimFat = claimer(fat, 'FAT', sectorCount);
  const directory = claimFat(bytes.readUInt32LE(0x30)).map(sector);
  const miniFat = table(claimFat(bytes.readUInt32LE(0x3c)).map(sector));
  const claimMini = claimer(miniFat, 'mini FAT', miniFat.length);
  const cutoff = bytes.readUInt32LE(0x38);
  for (const entries of directory) {
    for (let at = 0; at + ENTRY_BYTES <= entries.length; at += ENTRY_BYTES) {
      const type = entries.readUInt8(at + 66);
      if (type !== STREAM && type !== ROOT) continue;
      const start = entries.readUInt32LE(at + 116);
      const size = entries.readUInt32LE(at + 120);
      if (type === ROOT || size >= cutoff) claimFat(start);
      else if (size > 0) claimMini(start);
    }
  }
}

/** The FAT's own sectors: the header's 109 slots, then the DIFAT chain's. */
function fatSectors(bytes: Buffer, sectorCount: number, perSector: number): number[] {
  const declared = bytes.readUInt32LE(0x2c);
  if (declared > sectorCount) throw corrupt('more FAT sectors than the file holds');
  const list: number[] = [];
  for (let i = 0; i < HEADER_DIFAT_SLOTS && list.length < declared; i++) list.push(bytes.readUInt32LE(0x4c + i * 4));
  const seen = new Set<number>();
  let next = bytes.readUInt32LE(0x44);
  while (list.length < declared && next < MAX_REGULAR_SECTOR) {
    if (next >= sectorCount || seen.has(next)) throw corrupt('the DIFAT chain loops or leaves the file');
    seen.add(next);
    const at = (next + 1) * perSector * 4;
    for (let j = 0; j < perSector - 1 && list.length < declared; j++) list.push(bytes.readUInt32LE(at + j * 4));
    next = bytes.readUInt32LE(at + (perSector - 1) * 4);
  }
  if (list.some((n) => n >= sectorCount)) throw corrupt('a FAT sector lies past the end of the file');
  return list;
}

function table(sectors: Buffer[]): Uint32Array {
  const entries = new Uint32Array(sectors.reduce((sum, s) => sum + Math.floor(s.length / 4), 0));
  let i = 0;
  for (const s of sectors) for (let at = 0; at + 4 <= s.length; at += 4) entries[i++] = s.readUInt32LE(at);
  return entries;
}

/** Walks chains through one allocation table, each sector claimed once over all of them. */
function claimer(entries: Uint32Array, name: string, limit: number): (start: number) => number[] {
  const claimed = new Uint8Array(entries.length);
  return (start) => {
    const chain: number[] = [];
    for (let at = start; at < MAX_REGULAR_SECTOR; at = entries[at]!) {
      if (at >= Math.min(limit, entries.length) || claimed[at]) throw corrupt(`a ${name} chain loops, is shared or leaves the file`);
      claimed[at] = 1;
      chain.push(at);
    }
    return chain;
  };
}
