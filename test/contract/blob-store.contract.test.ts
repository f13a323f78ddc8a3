import test from 'ava';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createFsBlobStore } from '../../src/adapters/fs/blob-store.ts';
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
