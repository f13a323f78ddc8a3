/** An event as the events table stores it. */
export type EventRow = {
  position: number;
  id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
};

export type RecentRowsLimits = { maxRows: number; maxChars: number };

/**
 * The rows this process appended last, with no gap between their positions. Every subscriber
 * of the log reads each new event once (the projector, the parser, the indexer and the runner
 * on every append); served from here, those reads cost no query. A page is served only when the
 * rows cover it whole: rows another process appended leave a gap, which empties the window.
 */
export class RecentRows {
  #rows: EventRow[] = [];
  #first = 0;
  #chars = 0;

  constructor(readonly limits: RecentRowsLimits) {}

  /** Rows just committed, positions ascending. */
  push(rows: readonly EventRow[]): void {
    if (rows.length === 0) return;
    if (this.#rows.length > this.#first && rows[0]!.position !== this.#last() + 1) this.clear();
    for (const row of rows) {
      this.#rows.push(row);
      this.#chars += row.data.length + row.metadata.length;
    }
    while (this.#rows.length - this.#first > this.limits.maxRows || (this.#chars > this.limits.maxChars && this.#rows.length - this.#first > 1)) {
      const dropped = this.#rows[this.#first++]!;
      this.#chars -= dropped.data.length + dropped.metadata.length;
    }
    // The dropped rows' slots are reclaimed now and then, not on every drop.
    if (this.#first > 1024 && this.#first * 2 > this.#rows.length) {
      this.#rows = this.#rows.slice(this.#first);
      this.#first = 0;
    }
  }

  clear(): void {
    this.#rows = [];
    this.#first = 0;
    this.#chars = 0;
  }

  /**
   * Up to `limit` rows with after < position ≤ upTo (only of `types` when given), as the table
   * would answer; undefined when the window does not hold that whole range.
   */
  page(after: number, upTo: number, limit: number, types?: ReadonlySet<string>): EventRow[] | undefined {
    if (this.#rows.length === this.#first) return upTo <= after ? [] : undefined;
    const start = this.#rows[this.#first]!.position;
    if (after < start - 1 || upTo > this.#last()) return undefined;
    const out: EventRow[] = [];
    for (let i = this.#first + Math.max(0, after + 1 - start); i < this.#rows.length && out.length < limit; i++) {
      const row = this.#rows[i]!;
      if (row.position > upTo) break;
      if (!types || types.has(row.type)) out.push(row);
    }
    return out;
  }

  #last(): number {
    return this.#rows[this.#rows.length - 1]!.position;
  }
}
