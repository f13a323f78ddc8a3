import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ParseFailure } from '../types.ts';

export type ArchiveEntry = { name: string; compressedSize: number; uncompressedSize: number; encrypted: boolean };

export type Archive = {
  /** From the central directory only: nothing has been inflated yet. */
  entries: ArchiveEntry[];
  has(name: string): boolean;
  /** Inflates one entry; yauzl checks the inflated length against the declared size. */
  stream(name: string): Promise<Readable>;
  read(name: string): Promise<Buffer>;
  close(): void;
};

/** Beyond this many entries a document archive is not a document. */
const MAX_ENTRIES = 50_000;

/**
 * Opens a ZIP by its central directory (yauzl reads the end record and walks the directory; it
 * never touches entry data until asked). A file whose directory cannot be read is corrupt.
 */
export async function openArchive(path: string): Promise<Archive> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  } catch (error) {
    throw new ParseFailure('corrupt', `The archive could not be read: ${(error as Error).message}`);
  }
  const byName = new Map<string, yauzl.Entry>();
  try {
    if (zip.entryCount > MAX_ENTRIES) throw new ParseFailure('too_large', `The archive holds ${zip.entryCount} entries.`);
    for await (const entry of zip.eachEntry()) byName.set(entry.fileName, entry);
  } catch (error) {
    zip.close();
    if (error instanceof ParseFailure) throw error;
    throw new ParseFailure('corrupt', `The archive directory is damaged: ${(error as Error).message}`);
  }

  const entry = (name: string) => {
    const found = byName.get(name);
    if (!found) throw new ParseFailure('corrupt', `The archive has no part ${name}.`);
    return found;
  };
  const stream = async (name: string) => {
    try {
      return await zip.openReadStreamPromise(entry(name));
    } catch (error) {
      if (error instanceof ParseFailure) throw error;
      throw new ParseFailure('corrupt', `The part ${name} could not be read: ${(error as Error).message}`);
    }
  };

  return {
    entries: [...byName.values()].map((e) => ({
      name: e.fileName,
      compressedSize: e.compressedSize,
      uncompressedSize: e.uncompressedSize,
      encrypted: e.isEncrypted(),
    })),
    has: (name) => byName.has(name),
    stream,
    async read(name) {
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of await stream(name)) chunks.push(chunk as Buffer);
      } catch (error) {
        if (error instanceof ParseFailure) throw error;
        throw new ParseFailure('corrupt', `The part ${name} is damaged: ${(error as Error).message}`);
      }
      return Buffer.concat(chunks);
    },
    close: () => zip.close(),
  };
}
