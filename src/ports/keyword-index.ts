export type KeywordDocument = { id: string; documentId: string; text: string; metadata?: Record<string, string | number | boolean> };

export type KeywordMatch = { id: string; documentId: string; score: number };

/** BM25 over chunk text, one namespace per knowledge base. */
export interface KeywordIndex {
  upsert(namespace: string, docs: KeywordDocument[]): Promise<void>;
  deleteByDocument(namespace: string, documentId: string): Promise<void>;
  deleteNamespace(namespace: string): Promise<void>;
  query(namespace: string, text: string, topK: number, filter?: { documentIds?: string[] }): Promise<KeywordMatch[]>;
  ping(): Promise<void>;
}
