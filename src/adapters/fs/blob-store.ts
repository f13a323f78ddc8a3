import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { access, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BlobStore, BlobTooLargeError } from '../../ports/blob-store.ts';

const SHA256 = /^[0-9a-f]{64}$/;

/** Where a blob is written before it is renamed into place. */
const tmpDirOf = (root: string) => join(root, 'tmp');

/** Files under `root/aa/<sha256>`; written to a temporary name and renamed, so a reader never sees half a file. */
export function createFsBlobStore(root: string): BlobStore {
  const tmpDir = tmpDirOf(root);
  const pathOf = (sha256: string) => {
    if (!SHA256.test(sha256)) throw new Error('not a sha256 hex digest');
    return join(root, sha256.slice(0, 2), sha256);
  };
  const exists = (path: string) => access(path).then(() => true, () => false);
  const made = new Set<string>();
  const ensureDir = async (dir: string) => {
    if (made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    made.add(dir);
  };

  return {
    async put(source, { maxBytes = Number.POSITIVE_INFINITY } = {}) {
      await ensureDir(tmpDir);
      const tmp = join(tmpDir, randomUUID());
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > maxBytes) return done(new BlobTooLargeError(maxBytes));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(source, meter, createWriteStream(tmp));
        const sha256 = hash.digest('hex');
        const target = pathOf(sha256);
        await ensureDir(join(root, sha256.slice(0, 2)));
        await rename(tmp, target);
        return { sha256, sizeBytes: size };
      } finally {
        await rm(tmp, { force: true });
      }
    },
    async get(sha256) {
      const path = pathOf(sha256);
      return (await exists(path)) ? createReadStream(path) : null;
    },
    async has(sha256) {
      return exists(pathOf(sha256));
    },
    async delete(sha256) {
      await rm(pathOf(sha256), { force: true });
    },
    async localPath(sha256) {
      const path = pathOf(sha256);
      return (await exists(path)) ? { path, release: async () => {} } : null;
    },
    async ping() {
      // Synchronous, like the SQLite pings: one cheap system call (it fails unless root is, or can
      // become, a directory), where an asynchronous one would keep /readyz waiting a whole turn of
      // the event loop for its answer, which is long under load.
      mkdirSync(root, { recursive: true });
    },
  };
}

/**
 * Removes what uploads cut short left behind: a put's own cleanup never runs when its process is
 * killed (kill -9, the OOM killer, a power cut), and nothing else would ever delete the file.
 * Only files of `root/tmp` last written before `startedAt`; finished blobs are never looked at.
 * Run once at start by the data directory's owner, before it takes uploads: it alone writes blobs
 * (the lock of adapters/sqlite/data-dir-lock.ts), so no temp file there is anyone's work in progress.
 * Returns how many were removed.
 */
export async function sweepStaleTempBlobs(root: string, startedAt: Date): Promise<number> {
  const dir = tmpDirOf(root);
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile() || info.mtimeMs >= startedAt.getTime()) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}
