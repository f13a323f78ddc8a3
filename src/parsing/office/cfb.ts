export type ReadAt = (offset: number, length: number) => Promise<Buffer>;

export const CFB_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

const END_OF_CHAIN = 0xfffffffe;
const HEADER_DIFAT_SLOTS = 109;
/** Enough for any encrypted OOXML wrapper (a handful of streams) and most legacy files. */
const MAX_DIRECTORY_SECTORS = 64;
const MAX_DIFAT_SECTORS = 64;

/**
 * Names in an OLE2 compound file's directory (legacy .doc/.xls, and the wrapper Office puts
 * around a password-protected .docx/.xlsx). Follows the directory's sector chain through the
 * FAT, reading only the sectors it needs. Not the `cfb` package: the upload route calls this on
 * the API's event loop, and `CFB.read` loads the whole file and follows every stream's chain
 * without a loop check, so a 2.5 KB file whose chain loops kills the process
 * (test/unit/parsing-cfb.unit.test.ts has it).
 */
export async function cfbEntryNames(readAt: ReadAt): Promise<string[]> {
  const header = await readAt(0, 512);
  if (header.length < 512 || !header.subarray(0, 8).equals(CFB_SIGNATURE)) return [];
  const sectorSize = 1 << header.readUInt16LE(0x1e);
  if (sectorSize !== 512 && sectorSize !== 4096) return [];
  const perSector = sectorSize / 4;
  const sectorAt = (n: number) => readAt((n + 1) * sectorSize, sectorSize);

  const difat: number[] = [];
  for (let i = 0; i < HEADER_DIFAT_SLOTS; i++) difat.push(header.readUInt32LE(0x4c + i * 4));
  let difatSector = header.readUInt32LE(0x44);
  for (let i = 0; i < MAX_DIFAT_SECTORS && difatSector < END_OF_CHAIN; i++) {
    const sector = await sectorAt(difatSector);
    for (let j = 0; j < perSector - 1; j++) difat.push(sector.readUInt32LE(j * 4));
    difatSector = sector.readUInt32LE((perSector - 1) * 4);
  }

  const fatCache = new Map<number, Buffer>();
  const next = async (sector: number) => {
    const fatIndex = Math.floor(sector / perSector);
    const fatSector = difat[fatIndex];
    if (fatSector === undefined || fatSector >= END_OF_CHAIN) return END_OF_CHAIN;
    let fat = fatCache.get(fatIndex);
    if (!fat) fatCache.set(fatIndex, (fat = await sectorAt(fatSector)));
    return fat.length >= sectorSize ? fat.readUInt32LE((sector % perSector) * 4) : END_OF_CHAIN;
  };

  const names: string[] = [];
  const seen = new Set<number>();
  let sector = header.readUInt32LE(0x30);
  while (sector < END_OF_CHAIN && !seen.has(sector) && seen.size < MAX_DIRECTORY_SECTORS) {
    seen.add(sector);
    const entries = await sectorAt(sector);
    for (let at = 0; at + 128 <= entries.length; at += 128) {
      const nameBytes = entries.readUInt16LE(at + 64);
      if (nameBytes >= 2 && nameBytes <= 64) names.push(entries.toString('utf16le', at, at + nameBytes - 2));
    }
    sector = await next(sector);
  }
  return names;
}
