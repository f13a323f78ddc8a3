import { grown } from '../../lib/grown-array.ts';

/** One query's BM25 pass: the length normalisation c0 + c1·length and the accumulator it adds into. */
export type Accumulation = { c0: number; c1: number; lengths: Uint32Array; acc: Float32Array };

/** Postings per block: enough that walking a long list reads memory mostly in sequence. */
const BLOCK = 16;

/**
 * Postings added since the base was last built: for each term a chain of fixed-size blocks,
 * newest block first, ordinals ascending within a block. A chain of single postings made the
 * queries that ran right after heavy ingestion five times slower than on a freshly built base:
 * every posting was a cache miss.
 */
export class DeltaPostings {
  #head = new Int32Array(0);
  #next = new Int32Array(0);
  #fill = new Uint8Array(0);
  #ordinals = new Uint32Array(0);
  #tfs = new Uint8Array(0);
  #blocks = 0;
  #size = 0;

  /** Postings held. */
  get size(): number {
    return this.#size;
  }

  /** Posting slots allocated, used or not: what the delta costs in memory. */
  get slots(): number {
    return this.#blocks * BLOCK;
  }

  /** Its arrays, for the memory they hold. */
  arrays(): ArrayBufferView[] {
    return [this.#head, this.#next, this.#fill, this.#ordinals, this.#tfs];
  }

  add(term: number, ordinal: number, tf: number): void {
    if (term >= this.#head.length) this.#head = grown(this.#head, term + 1, -1);
    let block = this.#head[term]!;
    if (block < 0 || this.#fill[block] === BLOCK) {
      const fresh = this.#blocks++;
      this.#next = grown(this.#next, this.#blocks);
      this.#fill = grown(this.#fill, this.#blocks);
      this.#ordinals = grown(this.#ordinals, this.#blocks * BLOCK);
      this.#tfs = grown(this.#tfs, this.#blocks * BLOCK);
      this.#next[fresh] = block;
      this.#fill[fresh] = 0;
      this.#head[term] = block = fresh;
    }
    const slot = block * BLOCK + this.#fill[block]!++;
    this.#ordinals[slot] = ordinal;
    this.#tfs[slot] = tf;
    this.#size++;
  }

  /** Adds w·tf/(tf + c0 + c1·length) into `acc` for each of the term's postings (see NamespacePostings.search). */
  accumulate(term: number, w: number, { c0, c1, lengths, acc }: Accumulation): void {
    const ordinals = this.#ordinals;
    const tfs = this.#tfs;
    for (let block = this.#head[term] ?? -1; block >= 0; block = this.#next[block]!) {
      for (let p = block * BLOCK, end = p + this.#fill[block]!; p < end; p++) {
        const o = ordinals[p]!;
        const tf = tfs[p]!;
        acc[o] = acc[o]! + (w * tf) / (tf + c0 + c1 * lengths[o]!);
      }
    }
  }

  /** The term's postings, ordinals ascending. */
  forEach(term: number, visit: (ordinal: number, tf: number) => void): void {
    const chain: number[] = [];
    for (let block = this.#head[term] ?? -1; block >= 0; block = this.#next[block]!) chain.push(block);
    for (let i = chain.length - 1; i >= 0; i--) {
      const block = chain[i]!;
      for (let p = block * BLOCK, end = p + this.#fill[block]!; p < end; p++) visit(this.#ordinals[p]!, this.#tfs[p]!);
    }
  }
}
