import type { Readable } from 'node:stream';

export type StoredBlob = { sha256: string; sizeBytes: number };

/** Uploaded files, content-addressed by the sha256 of their bytes. */
export interface BlobStore {
  /** Streams the bytes in; rejects with BlobTooLargeError past `maxBytes` and keeps nothing. */
  put(source: Readable | AsyncIterable<Uint8Array>, options?: { maxBytes?: number }): Promise<StoredBlob>;
  get(sha256: string): Promise<Readable | null>;
  has(sha256: string): Promise<boolean>;
  delete(sha256: string): Promise<void>;
  /** A path on local disk holding the bytes, for parsers that need a file; `release` when done. */
  localPath(sha256: string): Promise<{ path: string; release(): Promise<void> } | null>;
  ping(): Promise<void>;
}

export class BlobTooLargeError extends Error {
  override readonly name = 'BlobTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`blob exceeds ${maxBytes} bytes`);
  }
}
