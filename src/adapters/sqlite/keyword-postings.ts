import { StringIds } from '../../lib/string-ids.ts';
import { type Bm25Parameters, bestReachable, idf, MAX_TERM_FREQUENCY } from '../../domain/retrieval/bm25.ts';
import type { KeywordMatch } from '../../ports/keyword-index.ts';
import { grown } from '../../lib/grown-array.ts';
import { decodeInto, maxTerms } from './keyword-codec.ts';
import { type Accumulation, DeltaPostings } from './keyword-delta.ts';
import { sharedScores } from './keyword-scores.ts';
import { TopK } from './keyword-top-k.ts';


/** A chunk's term ids, ascending, with their frequencies. */
export type ChunkTerms = { ids: ArrayLike<number>; tfs: ArrayLike<number> };

/** A chunk as stored: [chunk id, document id, length, encoded terms] (see keyword-codec.ts). */
export type StoredChunk = readonly [chunkId: string, documentId: string, length: number, terms: Uint8Array];

/**
 * One namespace's inverted index, in memory. Chunks are numbered by ordinal; each term has
 * postings (ordinal, tf) in two parts: a compact base (compressed sparse rows) holding the bulk,
 * and a delta (keyword-delta.ts) for chunks added since it was built. Removed chunks are only
 * marked dead, with their term statistics taken back at once so scores stay exact. When the
 * delta or the dead postings outgrow a quarter of the base, both are folded into a new base:
 * the cost is amortised, and queries mostly read long sequential runs.
 */
export class NamespacePostings {
  readonly #termIds = new StringIds();
  /** Live chunks per term: exact at all times, since it feeds idf. */
  #df = new Int32Array(0);
  #termCount = 0;

  readonly #chunkIds: string[] = [];
  #documentOf = new Int32Array(0);
  #lengths = new Uint32Array(0);
  #alive = new Uint8Array(0);
  #ordinals = 0;
  readonly #ordinalOf = new Map<string, number>();
  #documents: string[] = [];
  #documentOrdinal = new Map<string, number>();
  #live = 0;
  #totalLength = 0;

  #baseStart: Uint32Array = new Uint32Array(1);
  #baseOrdinals: Uint32Array = new Uint32Array(0);
  #baseTfs: Uint8Array = new Uint8Array(0);
  #delta = new DeltaPostings();
  #deadPostings = 0;

  constructor(readonly params: Bm25Parameters) {}

  get size(): number {
    return this.#live;
  }

  /** How many live chunks hold the term. */
  documentFrequency = (term: string): number => Math.max(this.#df[this.#termIds.get(term) ?? -1] ?? 0, 0);

  /** What holds memory: the arrays as allocated, the terms' among them (a StringIds, so no string per term), and how many chunk and document ids (see index-footprint.ts). */
  holdings = () => ({
    arrays: [this.#df, this.#documentOf, this.#lengths, this.#alive, this.#baseStart, this.#baseOrdinals, this.#baseTfs, ...this.#delta.arrays(), ...this.#termIds.arrays()],
    ids: this.#chunkIds.length + this.#documents.length,
  });

  has(chunkId: string): boolean {
    return this.#ordinalOf.has(chunkId);
  }

  /** A term's id, numbering it (and telling `created`) the first time it is seen. */
  intern(term: string, created: (term: string, id: number) => void): number {
    let id = this.#termIds.get(term);
    if (id === undefined) {
      id = this.#termCount;
      this.defineTerm(term, id);
      created(term, id);
    }
    return id;
  }

  /** Puts back a stored term under the id it was given. */
  defineTerm(term: string, id: number): void {
    this.#termIds.set(term, id);
    this.#termCount = Math.max(this.#termCount, id + 1);
    this.#df = grown(this.#df, this.#termCount);
  }

  /**
   * Fills an empty namespace from its stored chunks, in their order, building the base in one
   * go: terms are decoded once into flat arrays, then placed by a counting sort. Terms must be
   * defined first.
   */
  load(chunks: Iterable<StoredChunk>): void {
    if (this.#ordinals > 0) throw new Error('load fills an empty namespace only');
    let ids = new Uint32Array(1 << 16);
    let tfs = new Uint8Array(1 << 16);
    let ends = new Uint32Array(1 << 12);
    let n = 0;
    for (const [chunkId, documentId, length, bytes] of chunks) {
      const o = this.#newOrdinal(chunkId, documentId, length);
      ids = grown(ids, n + maxTerms(bytes));
      tfs = grown(tfs, n + maxTerms(bytes));
      n = decodeInto(bytes, ids, tfs, n, MAX_TERM_FREQUENCY);
      ends = grown(ends, o + 1);
      ends[o] = n;
    }
    // An id with no stored term can only come from a damaged row: it is skipped, here and below.
    const terms = this.#termCount;
    for (let p = 0; p < n; p++) if (ids[p]! < terms) this.#df[ids[p]!]!++;
    const start = this.#startsFromDf();
    const ordinals = new Uint32Array(n);
    const baseTfs = new Uint8Array(n);
    const cursor = start.slice(0, this.#termCount);
    for (let o = 0, p = 0; o < this.#ordinals; o++) {
      for (const end = ends[o]!; p < end; p++) {
        if (ids[p]! >= terms) continue;
        const slot = cursor[ids[p]!]!++;
        ordinals[slot] = o;
        baseTfs[slot] = tfs[p]!;
      }
    }
    this.#setBase(start, ordinals, baseTfs);
  }

  add(chunkId: string, documentId: string, terms: ChunkTerms, length: number): void {
    if (this.#ordinalOf.has(chunkId)) throw new Error(`chunk ${chunkId} is already indexed; remove it first`);
    const ordinal = this.#newOrdinal(chunkId, documentId, length);
    for (let i = 0; i < terms.ids.length; i++) {
      const term = terms.ids[i]!;
      this.#delta.add(term, ordinal, Math.min(terms.tfs[i]!, MAX_TERM_FREQUENCY));
      this.#df[term]!++;
    }
  }

  /** Takes a chunk out; `terms` must be the ones it was added with. */
  remove(chunkId: string, terms: ChunkTerms): void {
    const ordinal = this.#ordinalOf.get(chunkId);
    if (ordinal === undefined) return;
    this.#ordinalOf.delete(chunkId);
    this.#alive[ordinal] = 0;
    this.#live--;
    this.#totalLength -= this.#lengths[ordinal]!;
    for (let i = 0; i < terms.ids.length; i++) this.#df[terms.ids[i]!]!--;
    this.#deadPostings += terms.ids.length;
  }

  /** Folds the delta and drops dead postings once either outgrows a quarter of the base. */
  compactIfDue(): void {
    const slack = Math.max(1 << 16, this.#baseOrdinals.length >> 2);
    if (this.#delta.slots > slack || this.#deadPostings > slack) this.compact();
  }

  /**
   * A new base with every live posting, chunks renumbered without gaps. Runs are laid out from
   * the postings themselves, not from df, and df is then re-derived from them, so a statistic
   * that ever drifted is put right here instead of misplacing every later run.
   */
  compact(): void {
    const renumber = new Int32Array(this.#ordinals).fill(-1);
    let live = 0;
    for (let o = 0; o < this.#ordinals; o++) if (this.#alive[o]) renumber[o] = live++;
    const start = new Uint32Array(this.#termCount + 1);
    let ordinals = new Uint32Array(this.#baseOrdinals.length + this.#delta.size);
    let tfs = new Uint8Array(ordinals.length);
    let slot = 0;
    const keep = (o: number, tf: number) => {
      const n = renumber[o]!;
      if (n < 0) return;
      ordinals[slot] = n;
      tfs[slot++] = tf;
    };
    // Term by term, base then delta: delta ordinals all follow the base's, so each run stays ascending.
    for (let t = 0; t < this.#termCount; t++) {
      start[t] = slot;
      if (t + 1 < this.#baseStart.length) {
        for (let p = this.#baseStart[t]!, end = this.#baseStart[t + 1]!; p < end; p++) keep(this.#baseOrdinals[p]!, this.#baseTfs[p]!);
      }
      this.#delta.forEach(t, keep);
      this.#df[t] = slot - start[t]!;
    }
    start[this.#termCount] = slot;
    if (slot < ordinals.length) {
      ordinals = ordinals.slice(0, slot);
      tfs = tfs.slice(0, slot);
    }
    this.#renumberChunks(renumber, live);
    this.#setBase(start, ordinals, tfs);
  }

  /**
   * The best `topK` chunks for a query's distinct terms by BM25, divided by the best score the
   * query could reach. Score-at-a-time: each term's postings are added into one accumulator
   * slot per chunk, then one pass with a heap keeps the top k and clears the slots.
   */
  search(terms: readonly string[], topK: number, documentIds?: readonly string[]): KeywordMatch[] {
    const k = Math.min(Math.floor(topK), this.#live);
    if (!(k > 0) || terms.length === 0) return [];
    const allowed = documentIds ? this.#documentMask(documentIds) : null;
    if (allowed === undefined) return [];
    const { k1, b } = this.params;
    const n = this.#live;
    const ids = terms.map((t) => this.#termIds.get(t) ?? -1);
    const weights = ids.map((id) => idf(id < 0 ? 0 : this.#df[id]!, n));
    const best = bestReachable(weights, this.params);
    const c0 = k1 * (1 - b);
    const c1 = (k1 * b) / Math.max(this.#totalLength / n, 1);
    const acc = sharedScores.scores(this.#ordinals);
    const lengths = this.#lengths;
    const pass: Accumulation = { c0, c1, lengths, acc };
    let matched = false;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id < 0 || this.#df[id]! <= 0) continue;
      matched = true;
      const w = weights[i]! * (k1 + 1);
      if (id + 1 < this.#baseStart.length) {
        const ordinals = this.#baseOrdinals;
        const tfs = this.#baseTfs;
        for (let p = this.#baseStart[id]!, end = this.#baseStart[id + 1]!; p < end; p++) {
          const o = ordinals[p]!;
          const tf = tfs[p]!;
          acc[o] = acc[o]! + (w * tf) / (tf + c0 + c1 * lengths[o]!);
        }
      }
      this.#delta.accumulate(id, w, pass);
    }
    if (!matched) return [];
    const top = new TopK(k);
    const alive = this.#alive;
    const documentOf = this.#documentOf;
    sharedScores.offerBest(this.#ordinals, top, (o) => alive[o] === 1 && (!allowed || allowed[documentOf[o]!] === 1));
    return top.drain().map(({ ordinal, score }) => ({
      id: this.#chunkIds[ordinal]!,
      documentId: this.#documents[documentOf[ordinal]!]!,
      score: Math.min(1, score / best),
    }));
  }

  /** Which document ordinals a filter allows; undefined when it allows none that are indexed. */
  #documentMask(documentIds: readonly string[]): Uint8Array | undefined {
    const mask = new Uint8Array(this.#documents.length);
    let any = false;
    for (const id of documentIds) {
      const d = this.#documentOrdinal.get(id);
      if (d === undefined) continue;
      mask[d] = 1;
      any = true;
    }
    return any ? mask : undefined;
  }

  #newOrdinal(chunkId: string, documentId: string, length: number): number {
    const o = this.#ordinals++;
    this.#documentOf = grown(this.#documentOf, this.#ordinals);
    this.#lengths = grown(this.#lengths, this.#ordinals);
    this.#alive = grown(this.#alive, this.#ordinals);
    let d = this.#documentOrdinal.get(documentId);
    if (d === undefined) this.#documentOrdinal.set(documentId, (d = this.#documents.push(documentId) - 1));
    this.#chunkIds[o] = chunkId;
    this.#ordinalOf.set(chunkId, o);
    this.#documentOf[o] = d;
    this.#lengths[o] = length;
    this.#alive[o] = 1;
    this.#live++;
    this.#totalLength += length;
    return o;
  }

  /** Where each term's run starts in a base holding exactly the live postings (df per term). */
  #startsFromDf(): Uint32Array {
    const start = new Uint32Array(this.#termCount + 1);
    for (let t = 0; t < this.#termCount; t++) start[t + 1] = start[t]! + this.#df[t]!;
    return start;
  }

  #setBase(start: Uint32Array, ordinals: Uint32Array, tfs: Uint8Array) {
    this.#baseStart = start;
    this.#baseOrdinals = ordinals;
    this.#baseTfs = tfs;
    this.#delta = new DeltaPostings();
  }

  /** Chunk metadata moved to the new ordinals; documents no chunk refers to any more are dropped. */
  #renumberChunks(renumber: Int32Array, live: number) {
    const documents: string[] = [];
    const documentOrdinal = new Map<string, number>();
    const documentOf = new Int32Array(live);
    const lengths = new Uint32Array(live);
    for (let o = 0; o < this.#ordinals; o++) {
      const n = renumber[o]!;
      if (n < 0) continue;
      const documentId = this.#documents[this.#documentOf[o]!]!;
      let d = documentOrdinal.get(documentId);
      if (d === undefined) documentOrdinal.set(documentId, (d = documents.push(documentId) - 1));
      documentOf[n] = d;
      lengths[n] = this.#lengths[o]!;
      this.#chunkIds[n] = this.#chunkIds[o]!;
      this.#ordinalOf.set(this.#chunkIds[n]!, n);
    }
    this.#chunkIds.length = live;
    this.#documents = documents;
    this.#documentOrdinal = documentOrdinal;
    this.#documentOf = documentOf;
    this.#lengths = lengths;
    this.#alive = new Uint8Array(live).fill(1);
    this.#ordinals = live;
    this.#deadPostings = 0;
  }
}
