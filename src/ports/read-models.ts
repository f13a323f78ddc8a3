/**
 * Document-shaped projections (SQLite tables of JSON here, MongoDB collections there).
 * Writes carry the global position of the event that produced them, so replaying an event
 * that a document has already seen changes nothing.
 */
export type ReadModelWrite =
  | { op: 'put'; collection: string; id: string; doc: Record<string, unknown>; position: bigint }
  | { op: 'delete'; collection: string; id: string; position: bigint }
  /**
   * Adds to numeric fields (creating the document, and the fields at 0). Not position-guarded:
   * it travels in the same commit as the guarded write whose change it counts, and additions
   * commute, so totals over many streams need no order between them.
   */
  | { op: 'add'; collection: string; id: string; fields: Record<string, number> };

export type FindQuery = {
  /** Equality on top-level fields of the document. */
  where?: Record<string, string | number | boolean | null>;
  /** Ids sort in creation order (they are time-ordered), so paging is by id. */
  order?: 'asc' | 'desc';
  /** Return documents after this id in the chosen order. */
  after?: string;
  limit?: number;
};

export interface ReadModelStore {
  get<T = Record<string, unknown>>(collection: string, id: string): Promise<T | null>;
  /** The live documents among `ids`, by id, in one query whatever their number; missing and deleted ones are absent. */
  getMany<T = Record<string, unknown>>(collection: string, ids: readonly string[]): Promise<Map<string, T>>;
  /** The document (null when deleted) with the position of the last event applied to it. */
  getVersioned<T = Record<string, unknown>>(collection: string, id: string): Promise<{ doc: T | null; position: bigint } | null>;
  find<T = Record<string, unknown>>(collection: string, query?: FindQuery): Promise<T[]>;
  count(collection: string, where?: FindQuery['where']): Promise<number>;
  /** All writes and the group's checkpoint land together or not at all. */
  commit(writes: ReadModelWrite[], checkpoint?: { group: string; position: bigint }): Promise<void>;
  /** Forget every document of these collections and these groups' checkpoints (replay starts from nothing). */
  drop(collections: string[], groups?: string[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
