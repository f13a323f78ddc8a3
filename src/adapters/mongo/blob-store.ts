import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { GridFSBucket, type GridFSBucketWriteStream, MongoRuntimeError, type ObjectId } from 'mongodb';
import { type BlobStore, BlobTooLargeError, type StoredBlob } from '../../ports/blob-store.ts';
import type { MongoConnection } from './connection.ts';

const SHA256 = /^[0-9a-f]{64}$/;

function checked(sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error('not a sha256 hex digest');
  return sha256;
}

/**
 * Copies the source into the upload one write at a time, each awaited until GridFS has stored it,
 * so when the size limit trips no chunk insert is still in flight and discarding the upload
 * removes every chunk of it.
 */
async function copyHashed(source: Readable | AsyncIterable<Uint8Array>, upload: GridFSBucketWriteStream, maxBytes: number): Promise<StoredBlob> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    sizeBytes += bytes.length;
    if (sizeBytes > maxBytes) throw new BlobTooLargeError(maxBytes);
    hash.update(bytes);
    await new Promise<void>((resolve, reject) => upload.write(bytes, (error) => (error ? reject(error) : resolve())));
  }
  upload.end();
  await finished(upload);
  return { sha256: hash.digest('hex'), sizeBytes };
}

/** GridFS files named by the sha256 of their bytes; uploads run under a temporary name until hashed. */
export function createGridFsBlobStore(conn: MongoConnection, options: { bucketName?: string; tempDir?: string } = {}): BlobStore {
  const bucket = new GridFSBucket(conn.db, { bucketName: options.bucketName ?? 'blobs' });
  const tempDir = options.tempDir ?? tmpdir();
  const idsOf = async (sha256: string, limit = 0): Promise<ObjectId[]> =>
    (await bucket.find({ filename: checked(sha256) }, { limit, projection: { _id: 1 } }).toArray()).map((file) => file._id);
  const firstId = async (sha256: string) => (await idsOf(sha256, 1))[0] ?? null;
  // `delete` removes the chunks even when the files entry is missing (an unfinished upload), then
  // reports "not found": for a discard that is success.
  const discard = async (id: ObjectId) => {
    try {
      await bucket.delete(id);
    } catch (error) {
      if (!(error instanceof MongoRuntimeError && /not found/i.test(error.message))) throw error;
    }
  };

  return {
    async put(source, { maxBytes = Number.POSITIVE_INFINITY } = {}) {
      // Readers look files up by sha256 only, so an upload in progress is never served.
      const upload = bucket.openUploadStream(`tmp/${randomUUID()}`);
      upload.on('error', () => {}); // every error also reaches the write callback or `finished`
      try {
        const stored = await copyHashed(source, upload, maxBytes);
        // Two racing uploads of the same bytes can both rename; the copies are identical and
        // `delete` removes every file of the name, so the duplicate costs space only.
        if (await firstId(stored.sha256)) await discard(upload.id);
        else await bucket.rename(upload.id, stored.sha256);
        return stored;
      } catch (error) {
        upload.destroy();
        await discard(upload.id).catch(() => {}); // best effort: the caller needs the first error
        throw error;
      }
    },
    async get(sha256) {
      const id = await firstId(sha256);
      return id ? bucket.openDownloadStream(id) : null;
    },
    async has(sha256) {
      return (await firstId(sha256)) !== null;
    },
    async delete(sha256) {
      for (const id of await idsOf(sha256)) await discard(id);
    },
    async localPath(sha256) {
      const id = await firstId(sha256);
      if (!id) return null;
      const path = join(tempDir, `kbqa-blob-${randomUUID()}`);
      const release = () => rm(path, { force: true });
      try {
        await pipeline(bucket.openDownloadStream(id), createWriteStream(path));
      } catch (error) {
        await release();
        throw error;
      }
      return { path, release };
    },
    async ping() {
      await conn.db.command({ ping: 1 });
    },
  };
}
