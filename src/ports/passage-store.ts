/** A chunk as search results and citations show it: where it came from and what it says. */
export type Passage = {
  chunkId: string;
  documentId: string;
  /**
   * The document's name, written at index time so results need no document lookup; null for
   * passages indexed before names were kept (`kbqa reindex` rewrites them with their names).
   */
  documentName: string | null;
  /** The chunk's ordinal within its document. */
  index: number;
  page: number;
  headingPath: string[];
  text: string;
};

/**
 * The text and place of every indexed chunk, by chunk id, one namespace per knowledge base.
 * The indexes answer with ids and scores; this turns the few winners into citations without
 * reading the event log, a document's whole chunk list or the documents themselves.
 */
export interface PassageStore {
  upsert(namespace: string, passages: Passage[]): Promise<void>;
  /** The passages that exist among `chunkIds`; missing ids are simply absent from the map. */
  get(namespace: string, chunkIds: readonly string[]): Promise<Map<string, Passage>>;
  deleteByDocument(namespace: string, documentId: string): Promise<void>;
  deleteNamespace(namespace: string): Promise<void>;
  count(namespace: string): Promise<number>;
  ping(): Promise<void>;
}
