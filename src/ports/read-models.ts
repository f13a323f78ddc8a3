/**
 * Document-shaped projections (SQLite tables of JSON here, MongoDB collections there).
 * Writes carry the global position of the event that produced them, so replaying an event
 * that a document has already seen changes nothing.
 */
export type ReadModelWrite =
  | { op: 'put'; collection: string; id: string; doc: Record<string, unknown>; position: bigint }
  | { op: 'delete'; collection: string; id: string; position: bigint };

export type FindQuery = {
  /** Equality on top-level fields of the document. */
  where?: Record<string, string | number | boolean | null>;
  /** Ids sort in creation order (they are time-ordered), so paging is by id. */
  order?: 'asc' | 'desc';
  /** Return documents after this id in the chosen order. */
  after?: string;
  limit?: number;
};

export type GroupTotals = { count: number; sums: Record<string, number> };

export interface ReadModelStore {
  get<T = Record<string, unknown>>(collection: string, id: string): Promise<T | null>;
  /** The document (null when deleted) with the position of the last event applied to it. */
  getVersioned<T = Record<string, unknown>>(collection: string, id: string): Promise<{ doc: T | null; position: bigint } | null>;
  find<T = Record<string, unknown>>(collection: string, query?: FindQuery): Promise<T[]>;
  count(collection: string, where?: FindQuery['where']): Promise<number>;
  /**
   * For each of `values` of the field `groupBy`: how many live documents (matching `where`) have
   * it, and the sum of each numeric field in `sum` over them (missing fields count 0). Values with no documents are
   * absent. Aggregates over many streams are computed here at read time, not kept in a projection,
   * so no read model depends on the order in which different streams' events arrive.
   */
  totals(collection: string, groupBy: string, values: readonly string[], sum: readonly string[], where?: FindQuery['where']): Promise<Map<string, GroupTotals>>;
  /** All writes and the group's checkpoint land together or not at all. */
  commit(writes: ReadModelWrite[], checkpoint?: { group: string; position: bigint }): Promise<void>;
  /** Forget every document of these collections and these groups' checkpoints (replay starts from nothing). */
  drop(collections: string[], groups?: string[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
