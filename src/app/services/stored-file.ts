/** A file already in the blob store, with the type its bytes revealed (its own module: the version history and the document service both name it). */
export type StoredFile = { name: string; sha256: string; sizeBytes: number; mediaType: string };
