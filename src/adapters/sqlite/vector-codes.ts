/**
 * How vectors are compressed for search. Every vector is L2-normalised (so cosine is a dot
 * product) and, from 64 dimensions up, turned by a fixed random rotation (a randomised Hadamard
 * transform, as in RaBitQ) that spreads its energy evenly over the dimensions. It then keeps:
 * - an int8 code with one scale per vector, whose dot product with an int16 query gives the
 *   cosine to about ±0.001 at 512 dimensions (the rescoring step);
 * - one sign bit per rotated dimension. The query is not binarised: its rotated values,
 *   quantised to 4 bits, are summed per group of 4 sign bits from 16-entry tables, which
 *   estimates the cosine well enough to pick a shortlist (the scan).
 * - from 64 dimensions up, the unrotated values at 4 bits, for queries over few dimensions
 *   (vector-columns.ts).
 * The codes are stored beside the float vectors so that loading a namespace needs no encoding;
 * CODE_FORMAT names this encoding, and stored codes of another format are rebuilt from the floats.
 */
import { type ColumnQuery, createColumnQuery, encodeNibbles, nibbleBytes } from './vector-columns.ts';

export const CODE_FORMAT = 'hadamard2-sign-int8-nibble-v2';

export type CodeShape = {
  dims: number;
  /** Power of two the vector is padded to and rotated in; 0 when there is no sign code. */
  rotatedDims: number;
  /** Bytes of the int8 code: the rotated width, or dims rounded up to whole SIMD registers. */
  codeBytes: number;
  /** rotatedDims / 8 */
  bitBytes: number;
  /** Bytes of unrotated 4-bit values (see vector-columns.ts), 0 when there is no sign code. */
  nibbleBytes: number;
  /** Bytes of a stored record: int8 code, sign bits, scale, popcount, 1/L1 and nibble scale as float32, nibbles. */
  recordBytes: number;
};

/**
 * Below 64 dimensions the signs say too little to shortlist by, and scanning the int8 codes is
 * cheap anyway; above 4096 the scan's 16-bit sums could overflow. Both rescore every vector.
 */
const MIN_SIGN_DIMS = 64;
const MAX_SIGN_DIMS = 4096;
const ROTATION_ROUNDS = 2;
const LOWEST_BIT_INDEX = [0, 0, 1, 0, 2, 0, 0, 0, 3];

export function codeShape(dims: number): CodeShape {
  const rotatedDims = dims < MIN_SIGN_DIMS || dims > MAX_SIGN_DIMS ? 0 : Math.max(128, 2 ** Math.ceil(Math.log2(dims)));
  const codeBytes = rotatedDims || Math.ceil(dims / 16) * 16;
  const bitBytes = rotatedDims / 8;
  const nibbles = rotatedDims ? nibbleBytes(dims) : 0;
  return { dims, rotatedDims, codeBytes, bitBytes, nibbleBytes: nibbles, recordBytes: codeBytes + bitBytes + FIELD_BYTES + nibbles };
}

const FIELD_BYTES = 16;

/** The four numbers after the codes in a record. */
export function recordFields(record: Uint8Array, shape: CodeShape) {
  const view = new DataView(record.buffer, record.byteOffset + shape.codeBytes + shape.bitBytes, FIELD_BYTES);
  return { scale: view.getFloat32(0, true), popcount: view.getFloat32(4, true), inverseL1: view.getFloat32(8, true), nibbleScale: view.getFloat32(12, true) };
}

/** Where a record's nibbles start. */
export const nibbleOffset = (shape: CodeShape) => shape.codeBytes + shape.bitBytes + FIELD_BYTES;

export type QueryCode = {
  /** int16 query for rescoring: cosine ≈ dot(code, query) · scale / queryScale. */
  query: Int16Array;
  queryScale: number;
  /** 16-entry lookup table per group of 4 sign bits (rotatedDims / 4 of them), for the scan. */
  tables: Uint8Array;
  /** The scan's estimate is (k1·Σ lookups + k2·popcount + k3)·inverseL1. */
  k1: number;
  k2: number;
  k3: number;
  /** The query's non-zero dimensions for the column scan (count 0 without a sign code). */
  columns: ColumnQuery;
};

export function createEncoder(shape: CodeShape) {
  const { dims, codeBytes, rotatedDims, bitBytes, recordBytes } = shape;
  // The working vector, padded with zeros to the rotated width (or to whole SIMD registers).
  const space = new Float64Array(codeBytes);
  const signs = randomSigns(rotatedDims * ROTATION_ROUNDS);
  const columnQuery = createColumnQuery(dims);
  const query: QueryCode = { query: new Int16Array(codeBytes), queryScale: 1, tables: new Uint8Array(rotatedDims * 4), k1: 0, k2: 0, k3: 0, columns: columnQuery.query };
  const levels = new Uint8Array(rotatedDims);

  /** Sign flips then a fast Walsh–Hadamard transform, per round, in place on `space`. */
  const rotate = () => {
    for (let round = 0; round < ROTATION_ROUNDS; round++) {
      const flips = round * rotatedDims;
      // The first two levels together, with the sign flips: the generic loop is slow at h < 4.
      for (let i = 0; i < rotatedDims; i += 4) {
        const a = space[i]! * signs[flips + i]!;
        const b = space[i + 1]! * signs[flips + i + 1]!;
        const c = space[i + 2]! * signs[flips + i + 2]!;
        const d = space[i + 3]! * signs[flips + i + 3]!;
        space[i] = a + b + (c + d);
        space[i + 1] = a - b + (c - d);
        space[i + 2] = a + b - (c + d);
        space[i + 3] = a - b - (c - d);
      }
      for (let h = 4; h < rotatedDims; h *= 2) {
        for (let i = 0; i < rotatedDims; i += 2 * h) {
          for (let j = i; j < i + h; j++) {
            const a = space[j]!;
            const b = space[j + h]!;
            space[j] = a + b;
            space[j + h] = a - b;
          }
        }
      }
    }
    const orthonormal = rotatedDims ** (-ROTATION_ROUNDS / 2);
    for (let i = 0; i < rotatedDims; i++) space[i]! *= orthonormal;
  };

  /** 1 / ‖values‖ (0 for a zero vector), once the width and every component are checked. */
  const inverseNorm = (values: Float32Array): number => {
    if (values.length !== dims) throw new Error(`expected ${dims} dimensions, got ${values.length}`);
    let norm = 0;
    for (let i = 0; i < dims; i++) norm += values[i]! * values[i]!;
    if (!Number.isFinite(norm)) throw new Error('vector has a non-finite component');
    return norm > 0 ? 1 / Math.sqrt(norm) : 0;
  };

  /** `values` times `inverse` (see inverseNorm), then rotated when there is a sign code; zero stays zero (and scores 0). */
  const prepare = (values: Float32Array, inverse: number): Float64Array => {
    for (let i = 0; i < dims; i++) space[i] = values[i]! * inverse;
    space.fill(0, dims);
    if (rotatedDims > 0) rotate();
    return space;
  };

  return {
    shape,
    /** A new record (see CodeShape.recordBytes) for one vector. */
    encode(values: Float32Array): Uint8Array {
      const inverse = inverseNorm(values);
      const record = new Uint8Array(recordBytes);
      const nibbleScale = rotatedDims ? encodeNibbles(values, inverse, record.subarray(nibbleOffset(shape))) : 0;
      const v = prepare(values, inverse);
      const code = new Int8Array(record.buffer, 0, codeBytes);
      let max = 0;
      for (let i = 0; i < codeBytes; i++) max = Math.max(max, Math.abs(v[i]!));
      const toCode = max > 0 ? 127 / max : 0;
      for (let i = 0; i < codeBytes; i++) code[i] = Math.round(v[i]! * toCode);
      let popcount = 0;
      let l1 = 0;
      for (let i = 0; i < rotatedDims; i++) {
        l1 += Math.abs(v[i]!);
        if (v[i]! > 0) {
          record[codeBytes + (i >> 3)]! |= 1 << (i & 7);
          popcount++;
        }
      }
      const fields = new DataView(record.buffer, codeBytes + bitBytes, FIELD_BYTES);
      fields.setFloat32(0, max / 127, true);
      fields.setFloat32(4, popcount, true);
      fields.setFloat32(8, l1 > 0 ? 1 / l1 : 0, true);
      fields.setFloat32(12, nibbleScale, true);
      return record;
    },
    /** The query's codes, in buffers that the next call reuses. */
    encodeQuery(values: Float32Array): QueryCode {
      const inverse = inverseNorm(values);
      if (rotatedDims) columnQuery.encode(values, inverse);
      const v = prepare(values, inverse);
      let l1 = 0;
      let max = 0;
      for (let i = 0; i < codeBytes; i++) {
        l1 += Math.abs(v[i]!);
        max = Math.max(max, Math.abs(v[i]!));
      }
      // |int16| ≤ 16383 keeps each pair in i32x4.dot_i16x8_s exact; the L1 bound keeps the whole sum within int32.
      query.queryScale = max > 0 ? Math.min(16383 / max, 2 ** 31 / 128 / l1) : 1;
      for (let i = 0; i < codeBytes; i++) query.query[i] = Math.round(v[i]! * query.queryScale);
      if (rotatedDims === 0) return query;
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < rotatedDims; i++) {
        lo = Math.min(lo, v[i]!);
        hi = Math.max(hi, v[i]!);
      }
      const step = hi > lo ? (hi - lo) / 15 : 1;
      let levelSum = 0;
      for (let i = 0; i < rotatedDims; i++) {
        levels[i] = Math.round((v[i]! - lo) / step);
        levelSum += levels[i]!;
      }
      const tables = query.tables;
      for (let group = 0; group < rotatedDims / 4; group++) {
        const base = group * 4;
        const table = group * 16;
        tables[table] = 0;
        // Each entry is a smaller one plus the level of its lowest set bit.
        for (let nibble = 1; nibble < 16; nibble++) {
          const lowest = nibble & -nibble;
          tables[table + nibble] = tables[table + (nibble ^ lowest)]! + levels[base + LOWEST_BIT_INDEX[lowest]!]!;
        }
      }
      // Σ sign(o)·q with q ≈ lo + step·level: 2·(step·Σ_{bit set} level + lo·popcount) − Σ q.
      query.k1 = 2 * step;
      query.k2 = 2 * lo;
      query.k3 = -(rotatedDims * lo + step * levelSum);
      return query;
    },
  };
}

export type Encoder = ReturnType<typeof createEncoder>;

/** ±1 from a fixed seed (xorshift32): stored codes and later queries must share the rotation. */
function randomSigns(count: number): Float64Array {
  let state = 0x9e3779b9;
  const signs = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    signs[i] = (state >>> 16) & 1 ? 1 : -1;
  }
  return signs;
}

const encoders = new Map<number, Encoder>();

/** One encoder per width, shared: encoding is synchronous, so its scratch buffers never overlap. */
export function encoderFor(dims: number): Encoder {
  let encoder = encoders.get(dims);
  if (!encoder) encoders.set(dims, (encoder = createEncoder(codeShape(dims))));
  return encoder;
}
