import test from 'ava';
import { detectMediaType } from '../../src/parsing/detect.ts';
import { tempDir } from '../helpers/temp.ts';
import { write } from './parsing-fixtures.ts';

const dir = tempDir('kbqa-parsing-cfb-');
test.after.always(() => dir.remove());

const SECTOR = 512;
const END = 0xfffffffe;

type Layout = {
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
function compound({ fat, directoryStart, streams, sectors, difat = { start: END, count: 0 } }: Layout): Buffer {
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

const detect = async (name: string, bytes: Buffer) => {
  const started = performance.now();
  const detection = await detectMediaType(write(dir.path, name, bytes), name);
  return { detection, ms: performance.now() - started };
};

// The cfb package (SheetJS) follows a large stream's FAT chain without a loop check, so this
// 2.5 KB file makes it allocate until the process dies; detection only reads the directory.
test('a stream whose sector chain loops is still recognised, and at once', async (t) => {
  const bytes = compound({
    fat: [0, END, 3, 2],
    directoryStart: 1,
    streams: [{ name: 'EncryptedPackage', start: 3, size: 8192 }],
    sectors: 3,
  });
  const { detection, ms } = await detect('loop.xlsx', bytes);
  t.like(detection, { ok: false, code: 'encrypted' });
  t.true(ms < 1000, `${ms} ms`);
});

test('a directory chain that loops back on itself is read once', async (t) => {
  const { detection, ms } = await detect('dir-loop.doc', compound({ fat: [0, 1], directoryStart: 1, streams: [{ name: 'WordDocument', start: END, size: 0 }], sectors: 1 }));
  t.like(detection, { ok: false, code: 'unsupported_type' });
  t.true(ms < 1000, `${ms} ms`);
});

test('a DIFAT chain that loops ends', async (t) => {
  const bytes = compound({
    fat: [0, END, 2],
    directoryStart: 1,
    streams: [{ name: 'EncryptedPackage', start: END, size: 0 }],
    sectors: 2,
    difat: { start: 2, count: 0x7fffffff },
  });
  // Sector 2, the DIFAT sector, names itself as the next one.
  bytes.writeUInt32LE(2, SECTOR * 3 + SECTOR - 4);
  const { detection, ms } = await detect('difat-loop.xlsx', bytes);
  t.like(detection, { ok: false, code: 'encrypted' });
  t.true(ms < 1000, `${ms} ms`);
});
