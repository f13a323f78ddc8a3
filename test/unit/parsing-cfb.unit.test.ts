import test from 'ava';
import { detectMediaType } from '../../src/parsing/detect.ts';
import { tempDir } from '../helpers/temp.ts';
import { compoundFileOf as compound, END, SECTOR, write } from './parsing-fixtures.ts';

const dir = tempDir('kbqa-parsing-cfb-');
test.after.always(() => dir.remove());

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
  t.like(detection, { ok: true, mediaType: 'application/msword' });
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
