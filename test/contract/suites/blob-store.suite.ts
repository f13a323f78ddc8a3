import type { ExecutionContext, TestFn } from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { type BlobStore, BlobTooLargeError } from '../../../src/ports/blob-store.ts';

export type BlobStoreFixture = { blobs: BlobStore; cleanup(): Promise<void> };

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Content-addressed storage that streams, dedupes and refuses oversize input without keeping any of it. */
export function testBlobStore(test: TestFn, name: string, factory: () => Promise<BlobStoreFixture>) {
  const withBlobs = (title: string, body: (t: ExecutionContext, blobs: BlobStore) => Promise<void>) =>
    test(`${name} › ${title}`, async (t) => {
      const { blobs, cleanup } = await factory();
      try {
        await body(t, blobs);
      } finally {
        await cleanup();
      }
    });

  withBlobs('streams bytes in and out under their sha256', async (t, blobs) => {
    const bytes = Buffer.concat([randomBytes(300_000), Buffer.from('tail')]);
    const chunks = [bytes.subarray(0, 100_000), bytes.subarray(100_000)];
    const stored = await blobs.put(Readable.from(chunks));
    t.deepEqual(stored, { sha256: sha(bytes), sizeBytes: bytes.length });
    t.true(await blobs.has(stored.sha256));
    const back = await blobs.get(stored.sha256);
    const out: Buffer[] = [];
    for await (const chunk of back!) out.push(chunk as Buffer);
    t.true(Buffer.concat(out).equals(bytes));
  });

  withBlobs('the same bytes twice are stored once', async (t, blobs) => {
    const a = await blobs.put(Readable.from([Buffer.from('same content')]));
    const b = await blobs.put(Readable.from([Buffer.from('same content')]));
    t.is(a.sha256, b.sha256);
    t.is(await text((await blobs.get(a.sha256))!), 'same content');
  });

  withBlobs('over maxBytes: BlobTooLargeError and nothing kept', async (t, blobs) => {
    const bytes = randomBytes(10_000);
    await t.throwsAsync(blobs.put(Readable.from([bytes]), { maxBytes: 9_999 }), { instanceOf: BlobTooLargeError });
    t.false(await blobs.has(sha(bytes)));
    const exact = await blobs.put(Readable.from([bytes]), { maxBytes: 10_000 });
    t.is(exact.sizeBytes, 10_000);
  });

  withBlobs('delete removes; missing blobs read as null', async (t, blobs) => {
    const { sha256 } = await blobs.put(Readable.from([Buffer.from('to delete')]));
    await blobs.delete(sha256);
    t.false(await blobs.has(sha256));
    t.is(await blobs.get(sha256), null);
    await t.notThrowsAsync(blobs.delete(sha256));
  });

  withBlobs('a name that is not a sha256 is refused (no path tricks)', async (t, blobs) => {
    await t.throwsAsync(async () => blobs.get('../../etc/passwd'));
  });
}
