import test from 'ava';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createFsBlobStore, sweepStaleTempBlobs } from '../../src/adapters/fs/blob-store.ts';
import { tempDir } from '../helpers/temp.ts';
import { testBlobStore } from './suites/blob-store.suite.ts';

testBlobStore(test, 'filesystem', async () => {
  const dir = tempDir();
  return { blobs: createFsBlobStore(dir.path), cleanup: async () => dir.remove() };
});

test('filesystem › a refused upload leaves no temporary file behind', async (t) => {
  const dir = tempDir();
  const blobs = createFsBlobStore(dir.path);
  await t.throwsAsync(blobs.put(Readable.from([Buffer.alloc(2048)]), { maxBytes: 1024 }));
  t.deepEqual(readdirSync(join(dir.path, 'tmp')), []);
  dir.remove();
});

test('filesystem › the start’s sweep removes temporary files written before it, never a finished blob nor a newer file', async (t) => {
  const dir = tempDir();
  const blobs = createFsBlobStore(dir.path);
  const { sha256 } = await blobs.put(Readable.from([Buffer.from('finished')]));
  t.is(await sweepStaleTempBlobs(join(dir.path, 'nowhere'), new Date()), 0, 'no temp folder yet: nothing to do');
  const tmp = join(dir.path, 'tmp');
  writeFileSync(join(tmp, 'cut-short'), 'half a file');
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(join(tmp, 'cut-short'), hourAgo, hourAgo);
  writeFileSync(join(tmp, 'in-progress'), 'being written');
  t.is(await sweepStaleTempBlobs(dir.path, new Date(Date.now() - 60_000)), 1);
  t.deepEqual(readdirSync(tmp), ['in-progress']);
  t.true(await blobs.has(sha256));
  dir.remove();
});
