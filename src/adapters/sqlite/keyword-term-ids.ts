import { grown } from './keyword-arrays.ts';

const encoder = new TextEncoder();
const EMPTY = 0;

/**
 * A namespace's terms and their ids, held in typed arrays instead of a Map of strings. A Map
 * entry and its term string cost 70–100 bytes of heap a term (the Map's table is a power of two,
 * so up to half of it is spare), and a knowledge base of 300 chunks has some 20,000 terms: the
 * largest part of its keyword index, and one the budget undercounted (docs/benchmarks.md, issue
 * 36). Worse, loading it put 1.5 MB of survivors through V8's young generation per knowledge
 * base, and survivors are what make V8 grow it: searching 20 cold knowledge bases grew it to 128
 * MB. Here a term is its UTF-8 bytes, where they start, its hash and two table slots: about 30
 * bytes, outside the heap, counted exactly by `arrays()`.
 */
export class TermIds {
  /** The terms' UTF-8 bytes, one after another. */
  #bytes = new Uint8Array(1 << 12);
  #used = 0;
  /** Per term id: where its bytes start, how many (-1: no term has this id) and its hash. */
  #starts = new Uint32Array(64);
  #lengths = new Int32Array(64).fill(-1);
  #hashes = new Uint32Array(64);
  /** Open addressing, linear probing: term id + 1 per slot, EMPTY where none. At most half full. */
  #slots = new Int32Array(1 << 8);
  #count = 0;
  #scratch = new Uint8Array(256);

  /** How many terms are defined. */
  get size(): number {
    return this.#count;
  }

  /** The term's id, or undefined when it has none. */
  get(term: string): number | undefined {
    const length = this.#encode(term);
    const hash = hashOf(this.#scratch, length);
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot]!;
      if (entry === EMPTY) return undefined;
      const id = entry - 1;
      if (this.#hashes[id] === hash && this.#equals(id, length)) return id;
    }
  }

  /** Gives `term` the id `id` (a stored term put back, or a new one); a term is defined once. */
  set(term: string, id: number): void {
    const length = this.#encode(term);
    this.#bytes = grown(this.#bytes, this.#used + length);
    this.#bytes.set(this.#scratch.subarray(0, length), this.#used);
    this.#starts = grown(this.#starts, id + 1);
    this.#lengths = grown(this.#lengths, id + 1, -1);
    this.#hashes = grown(this.#hashes, id + 1);
    this.#starts[id] = this.#used;
    this.#lengths[id] = length;
    this.#hashes[id] = hashOf(this.#scratch, length);
    this.#used += length;
    this.#count += 1;
    if (this.#count * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2);
    else this.#place(id);
  }

  /** What it holds, as allocated (index-footprint.ts counts these). */
  arrays(): ArrayBufferView[] {
    return [this.#bytes, this.#starts, this.#lengths, this.#hashes, this.#slots];
  }

  #place(id: number) {
    const mask = this.#slots.length - 1;
    let slot = this.#hashes[id]! & mask;
    while (this.#slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.#slots[slot] = id + 1;
  }

  #rehash(capacity: number) {
    this.#slots = new Int32Array(capacity);
    for (let id = 0; id < this.#lengths.length; id++) if (this.#lengths[id]! >= 0) this.#place(id);
  }

  #encode(term: string): number {
    if (this.#scratch.length < term.length * 3) this.#scratch = new Uint8Array(term.length * 3);
    return encoder.encodeInto(term, this.#scratch).written;
  }

  #equals(id: number, length: number): boolean {
    const start = this.#starts[id]!;
    if (this.#lengths[id] !== length) return false;
    for (let i = 0; i < length; i++) if (this.#bytes[start + i] !== this.#scratch[i]) return false;
    return true;
  }
}

/** FNV-1a over the bytes. */
function hashOf(bytes: Uint8Array, length: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}
