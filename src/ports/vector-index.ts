export type VectorRecord = {
  id: string;
  values: Float32Array;
  /** Scalar metadata used by filters (knowledge base, document, user metadata). */
  metadata: Record<string, string | number | boolean>;
};

export type VectorMatch = { id: string; score: number; metadata: VectorRecord['metadata'] };

export type VectorFilter = { documentIds?: string[]; metadata?: Record<string, string | number | boolean> };

/** Approximate or exact k-nearest neighbours, one namespace per knowledge base. */
export interface VectorIndex {
  upsert(namespace: string, records: VectorRecord[]): Promise<void>;
  deleteByDocument(namespace: string, documentId: string): Promise<void>;
  deleteNamespace(namespace: string): Promise<void>;
  query(namespace: string, vector: Float32Array, topK: number, filter?: VectorFilter): Promise<VectorMatch[]>;
  ping(): Promise<void>;
}
