import type { Box } from '../domain/document/box.ts';

/** A chunk as search results, citations and a document's chunk list show it: where it came from and what it says. */
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
  /** Where the chunk's text starts and ends in its page's text (the page's blocks joined by `\n`). */
  charStart: number;
  charEnd: number;
  /** The chunk's size in estimated tokens. */
  tokenCount: number;
  /** Its lines on the page (see Box); absent for formats without layout and passages stored before boxes were kept. */
  boxes?: Box[];
  /**
   * The versions of its document that hold this chunk, first to last (issue 44): a chunk a new
   * version shares with the one before is the same passage, its range widened. Retrieval shows a
   * passage only while its document's current version is within the range. Absent (passages from
   * before versions): version 1 only.
   */
  firstVersion?: number;
  lastVersion?: number;
};

/** Whether a passage belongs to a version of its document (see Passage.firstVersion). */
export const holdsVersion = (passage: Pick<Passage, 'firstVersion' | 'lastVersion'>, version: number) =>
  (passage.firstVersion ?? 1) <= version && version <= (passage.lastVersion ?? 1);

/**
 * The fields passages stored before the chunk list read them lack: where the chunk sits in its page
 * and its size. Such passages read them as 0 until `place` sets them (on open, from the log).
 */
export type PassagePlacement = Pick<Passage, 'chunkId' | 'charStart' | 'charEnd' | 'tokenCount'>;

/** A document's passages in one namespace. */
export type PassageDocument = { namespace: string; documentId: string };

/**
 * The text and place of every indexed chunk, by chunk id, one namespace per knowledge base.
 * The indexes answer with ids and scores; this turns the few winners into citations without
 * reading the event log, a document's whole chunk list or the documents themselves, and lists a
 * document's chunks in order.
 */
export interface PassageStore {
  upsert(namespace: string, passages: Passage[]): Promise<void>;
  /** The passages that exist among `chunkIds`; missing ids are simply absent from the map. */
  get(namespace: string, chunkIds: readonly string[]): Promise<Map<string, Passage>>;
  /** A document's passages in chunk order: those whose index is above `after` (all without it), at most `limit`. */
  listByDocument(namespace: string, documentId: string, page: { after?: number; limit: number }): Promise<Passage[]>;
  /** Documents with a passage stored without placement, in (namespace, document id) order after `after`, at most `limit`. */
  unplaced(after: PassageDocument | null, limit: number): Promise<PassageDocument[]>;
  /** Sets the placement of the passages that exist among `placements`; other ids are left alone. */
  place(namespace: string, placements: readonly PassagePlacement[]): Promise<void>;
  deleteByDocument(namespace: string, documentId: string): Promise<void>;
  /** Removes these chunks (a retired version's, issue 44); ids not stored are ignored. */
  deleteChunks(namespace: string, chunkIds: readonly string[]): Promise<void>;
  deleteNamespace(namespace: string): Promise<void>;
  count(namespace: string): Promise<number>;
  ping(): Promise<void>;
}
