/**
 * A second code for the scan, for queries that touch few dimensions. The default embedder
 * hashes a query's words and trigrams into a median 64 of its 512 dimensions (SciFact claims;
 * 41–83 from the 10th to the 90th percentile), and a dot product only needs the dimensions where
 * the query is not zero. The sign code cannot skip any: the rotation that makes it accurate
 * spreads every query over all of them. So each vector also keeps its unrotated, normalised
 * values at 4 bits (one scale per vector), stored by column: a query reads only its own
 * dimensions' columns, 32 bytes a vector at 64 dimensions against the sign scan's 72. The 4-bit
 * estimate is also closer than the sign code's (on 100k SciFact windows, a 300-vector shortlist
 * held 0.998 of exact search's top 100), so fewer vectors need their int8 code read.
 * Queries over many dimensions (any dense embedding) keep the sign scan.
 */

/** Slots whose columns are contiguous: each column a 8 KB stream (4 KB streams were 8 % slower at 1M). */
export const SUPER_SLOTS = 16384;

/** Levels a stored value or the query is quantised to, either side of zero. */
const LEVELS = 7;

/** More listed dimensions than this and the int16 sums could overflow (see vector-column-kernel.ts). */
const MAX_LISTED = 584;

/**
 * The column scan reads `listed / 2` bytes a vector, the sign scan `signBytes` plus 8 of norms;
 * measured at 1M vectors of 512 dimensions the two scans cost the same at 96 listed (48 bytes
 * against 72), and there columns still win by the rescoring they save.
 */
export const usesColumns = (listed: number, signBytes: number) => listed > 0 && listed <= MAX_LISTED && listed / 2 <= (2 / 3) * (signBytes + 8);

/**
 * Superblock size for a capacity: the largest power of two up to SUPER_SLOTS whose superblocks
 * leave at most a sixth of the capacity unused (20k vectors in superblocks of 16,384 would take
 * 64 % more column memory than they fill). Smaller superblocks scan slower: at 101,613 chunks,
 * 8,192 gave 7 % fewer searches a second at 32 clients than 16,384.
 */
export function superSlotsFor(capacity: number): number {
  let slots = SUPER_SLOTS;
  while (slots > 64 && Math.ceil(capacity / slots) * slots > capacity * (7 / 6)) slots /= 2;
  return slots;
}

/** Room for every dimension listed, padded to the kernel's four columns at a time. */
export const paddedCount = (dims: number) => Math.ceil(dims / 4) * 4;

/** Bytes of nibbles in a record: one per dimension, two a byte (dimension 2i low, 2i + 1 high). */
export const nibbleBytes = (dims: number) => Math.ceil(dims / 2);

/** Writes `values` (normalised by `inverseNorm`) as nibbles into `into`; returns the scale. */
export function encodeNibbles(values: Float32Array, inverseNorm: number, into: Uint8Array): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) max = Math.max(max, Math.abs(values[i]! * inverseNorm));
  const scale = max / LEVELS;
  const toLevel = scale > 0 ? inverseNorm / scale : 0;
  for (let i = 0; i < values.length; i++) {
    const nibble = Math.round(values[i]! * toLevel) + 8;
    into[i >> 1]! |= i & 1 ? nibble << 4 : nibble;
  }
  return scale;
}

export type ColumnQuery = {
  /** How many dimensions are listed (a multiple of four: zero tables pad the rest; see vector-column-kernel.ts). */
  count: number;
  dimensions: Int32Array;
  /** 16 int8 entries per listed dimension: its level times each nibble's value (nibble − 8). */
  tables: Int8Array;
  /** estimate = Σ · vector scale · unit; also the query's rounding step. */
  unit: number;
};

export function createColumnQuery(dims: number): { query: ColumnQuery; encode(values: Float32Array, inverseNorm: number): ColumnQuery } {
  const query: ColumnQuery = { count: 0, dimensions: new Int32Array(paddedCount(dims)), tables: new Int8Array(paddedCount(dims) * 16), unit: 0 };
  return {
    query,
    encode(values, inverseNorm) {
      let max = 0;
      for (let i = 0; i < dims; i++) max = Math.max(max, Math.abs(values[i]! * inverseNorm));
      const step = max / LEVELS;
      query.unit = step;
      let count = 0;
      for (let i = 0; i < dims && step > 0; i++) {
        const level = Math.round((values[i]! * inverseNorm) / step);
        if (level === 0) continue;
        query.dimensions[count] = i;
        for (let nibble = 0; nibble < 16; nibble++) query.tables[count * 16 + nibble] = level * (nibble - 8);
        count++;
      }
      // Padding reads a listed column again, with a table of zeros.
      for (; count % 4 !== 0; count++) {
        query.dimensions[count] = query.dimensions[0]!;
        query.tables.fill(0, count * 16, count * 16 + 16);
      }
      query.count = count;
      return query;
    },
  };
}

/** One layout of nibble columns in memory: superblocks of `superSlots` slots from byte `columns`. */
export function columnRegion(dims: number, superSlots: number, columns: number) {
  const half = superSlots / 2;
  /** The slot's byte in dimension 0's column, and which nibble of each column byte is the slot's. */
  const locate = (slot: number) => {
    const within = slot % superSlots;
    const byte = columns + Math.floor(slot / superSlots) * dims * half + (within >> 5) * 16 + (within & 15);
    return { byte, shift: (within & 31) >= 16 ? 4 : 0 };
  };
  return {
    /** Writes one slot's nibbles, packed as in a record (`packed` from `offset`). */
    write(u8: Uint8Array, slot: number, packed: Uint8Array, offset: number) {
      let { byte, shift } = locate(slot);
      // The other nibble of each column byte belongs to another slot.
      const keep = shift ? 0x0f : 0xf0;
      for (let dim = 0; dim < dims; dim += 2, byte += 2 * half) {
        const pair = packed[offset + (dim >> 1)]!;
        u8[byte] = (u8[byte]! & keep) | ((pair & 15) << shift);
        if (dim + 1 < dims) u8[byte + half] = (u8[byte + half]! & keep) | ((pair >> 4) << shift);
      }
    },
    /** One slot's nibbles, packed as in a record, into `into`. */
    read(u8: Uint8Array, slot: number, into: Uint8Array) {
      let { byte, shift } = locate(slot);
      into.fill(0);
      for (let dim = 0; dim < dims; dim++, byte += half) into[dim >> 1]! |= ((u8[byte]! >> shift) & 15) << ((dim & 1) * 4);
    },
  };
}
