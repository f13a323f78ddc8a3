import { grown } from './grown-array.ts';

const encoder = new TextEncoder();
const EMPTY = 0;

/**
 * Strings and the ids they were given, held in typed arrays instead of a Map of strings: a
 * string is its UTF-8 bytes, where they start, how many, its hash and two table slots, about 30
 * bytes outside the heap, where a Map entry and its string cost 70–100 bytes of heap (the Map's
 * table is a power of two, so up to half of it is spare). Many small strings kept for good are
 * also what makes V8 grow its young generation: they survive its scavenges on their way to the
 * old one, and V8 grows the young generation by what survives (docs/benchmarks.md, issue 36).
 * `arrays()` says exactly what it holds.
 */
export class StringIds {
  /** The strings' UTF-8 bytes, one after another. */
  #bytes = new Uint8Array(1 << 12);
  #used = 0;
  /** Per id: where its string's bytes start, how many (-1: no string has this id) and its hash. */
  #starts = new Uint32Array(64);
  #lengths = new Int32Array(64).fill(-1);
  #hashes = new Uint32Array(64);
  /** Open addressing, linear probing: id + 1 per slot, EMPTY where none. At most half full. */
  #slots = new Int32Array(1 << 8);
  #count = 0;
  #scratch = new Uint8Array(256);
  /** The hash of what #encode last wrote. */
  #hash = 0;

  /** How many strings have an id. */
  get size(): number {
    return this.#count;
  }

  /** The string's id, or undefined when it has none. */
  get(term: string): number | undefined {
    const length = this.#encode(term);
    const hash = this.#hash;
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot]!;
      if (entry === EMPTY) return undefined;
      const id = entry - 1;
      if (this.#hashes[id] === hash && this.#equals(id, length)) return id;
    }
  }

  /** Gives `term` the id `id`; each string is given one id, once. */
  set(term: string, id: number): void {
    const length = this.#encode(term);
    this.#bytes = grown(this.#bytes, this.#used + length);
    this.#bytes.set(this.#scratch.subarray(0, length), this.#used);
    this.#starts = grown(this.#starts, id + 1);
    this.#lengths = grown(this.#lengths, id + 1, -1);
    this.#hashes = grown(this.#hashes, id + 1);
    this.#starts[id] = this.#used;
    this.#lengths[id] = length;
    this.#hashes[id] = this.#hash;
    this.#used += length;
    this.#count += 1;
    if (this.#count * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2);
    else this.#place(id);
  }

  /** What it holds, as allocated. */
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

  /**
   * The string's UTF-8 in the scratch buffer, its hash in #hash; returns its length. By hand, and
   * hashed on the way, up to two-byte characters: encodeInto and a second pass cost more than the
   * loop for the short strings kept here (a keyword upsert looks up each of a chunk's terms).
   */
  #encode(term: string): number {
    if (this.#scratch.length < term.length * 3) this.#scratch = new Uint8Array(term.length * 3);
    const scratch = this.#scratch;
    let written = 0;
    let hash = FNV_OFFSET;
    for (let i = 0; i < term.length; i++) {
      const c = term.charCodeAt(i);
      if (c < 0x80) {
        scratch[written++] = c;
        hash = Math.imul(hash ^ c, FNV_PRIME);
      } else if (c < 0x800) {
        const high = 0xc0 | (c >> 6);
        const low = 0x80 | (c & 0x3f);
        scratch[written++] = high;
        scratch[written++] = low;
        hash = Math.imul(Math.imul(hash ^ high, FNV_PRIME) ^ low, FNV_PRIME);
      } else {
        written = encoder.encodeInto(term, scratch).written;
        hash = hashOf(scratch, written);
        break;
      }
    }
    this.#hash = hash >>> 0;
    return written;
  }

  #equals(id: number, length: number): boolean {
    const start = this.#starts[id]!;
    if (this.#lengths[id] !== length) return false;
    for (let i = 0; i < length; i++) if (this.#bytes[start + i] !== this.#scratch[i]) return false;
    return true;
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the bytes. */
function hashOf(bytes: Uint8Array, length: number): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
  return hash;
}
