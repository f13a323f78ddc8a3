export type VectorRecord = { id: string; documentId: string; values: Float32Array };

export type VectorMatch = { id: string; documentId: string; score: number };

/** Filters every adapter can apply natively; metadata filters are resolved to document ids first. */
export type IndexFilter = { documentIds?: readonly string[] };

/** k-nearest neighbours by cosine similarity, one namespace per knowledge base. */
export interface VectorIndex {
  upsert(namespace: string, records: VectorRecord[]): Promise<void>;
  deleteByDocument(namespace: string, documentId: string): Promise<void>;
  /** Removes these chunks (a retired version's, issue 44); ids not stored are ignored. */
  deleteChunks(namespace: string, chunkIds: readonly string[]): Promise<void>;
  deleteNamespace(namespace: string): Promise<void>;
  /** Best first; `score` is the cosine similarity (−1..1). */
  query(namespace: string, vector: Float32Array, topK: number, filter?: IndexFilter): Promise<VectorMatch[]>;
  count(namespace: string): Promise<number>;
  ping(): Promise<void>;
}
