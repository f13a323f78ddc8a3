import { loopUntil, op, type Code, type FunctionDef, type as t } from './vector-wasm.ts';

/**
 * The column scan (see vector-columns.ts): for every slot, Σ over the query's listed dimensions
 * of table[dimension][nibble], where each 16-entry int8 table holds the query's level times the
 * nibble's value. Memory per superblock of S slots: for each dimension, S/2 bytes in groups of
 * 16, byte j of group g holding slot 32g + j in its low nibble and slot 32g + 16 + j in its high.
 * A superblock is read a dimension at a time, two at once, so each listed column is one
 * sequential stream (the hardware prefetches it; reading 32 slots' dimensions at a time was
 * twice as slow at 1M vectors), and sums gather in `acc` (S int16s, which stay in cache).
 * Each pair of int8 products (at most 56 apart from zero each) fits an int8 lane; the int16
 * sums hold up to 585 listed dimensions.
 */
export function columnScanFunction(): FunctionDef {
  const [columns, superblocks, superBytes, groupBytes, list, count, tables, scales, out, unit, acc] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
  const [end, listEnd, g, c1, c2, p, tp, sums, b1, b2, t1, t2, lo, hi, mask, units] = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26] as const;
  const fromZero = (cursor: number, limit: Code, body: Code, step: number): Code => [...op.i32(0), ...op.set(cursor), ...loopUntil(cursor, limit, body, [[cursor, step]])];
  const nibbles = (bytes: number, high: boolean): Code => [...op.get(bytes), ...(high ? [...op.i32(4), ...op.i16x8ShrU] : []), ...op.get(mask), ...op.v128And];
  const lookups = (high: boolean): Code => [
    ...op.get(t1), ...nibbles(b1, high), ...op.i8x16Swizzle,
    ...op.get(t2), ...nibbles(b2, high), ...op.i8x16Swizzle,
    ...op.i8x16Add,
  ];
  const accumulate = (k: number, value: number, widen: Code): Code => [
    ...op.get(sums), ...op.get(sums), ...op.v128Load(k * 16), ...op.get(value), ...widen, ...op.i16x8Add, ...op.v128Store(k * 16),
  ];
  // 16 bytes of two columns: 32 slots, whose sums sit at acc + 4g (g counts column bytes).
  const group: Code = [
    ...op.get(c1), ...op.get(g), ...op.i32Add, ...op.v128Load(), ...op.set(b1),
    ...op.get(c2), ...op.get(g), ...op.i32Add, ...op.v128Load(), ...op.set(b2),
    ...lookups(false), ...op.set(lo),
    ...lookups(true), ...op.set(hi),
    ...op.get(g), ...op.i32(4), ...op.i32Mul, ...op.get(acc), ...op.i32Add, ...op.set(sums),
    ...accumulate(0, lo, op.i16x8FromLowI8), ...accumulate(1, lo, op.i16x8FromHighI8),
    ...accumulate(2, hi, op.i16x8FromLowI8), ...accumulate(3, hi, op.i16x8FromHighI8),
  ];
  const pair: Code = [
    ...op.get(columns), ...op.get(p), ...op.i32Load(), ...op.i32Add, ...op.set(c1),
    ...op.get(columns), ...op.get(p), ...op.i32Load(4), ...op.i32Add, ...op.set(c2),
    ...op.get(tp), ...op.v128Load(), ...op.set(t1),
    ...op.get(tp), ...op.v128Load(16), ...op.set(t2),
    ...fromZero(g, op.get(groupBytes), group, 16),
  ];
  const clear: Code = [...op.get(acc), ...op.get(g), ...op.i32Add, ...op.v128Zero, ...op.v128Store()];
  /** Eight sums as float32s, times each slot's scale and the query's unit. */
  const emitHalf = (k: number, high: boolean): Code => [
    ...op.get(out),
    ...op.get(sums), ...op.v128Load(k * 16), ...(high ? op.i32x4FromHighI16 : op.i32x4FromLowI16), ...op.f32x4FromI32,
    ...op.get(scales), ...op.v128Load((2 * k + (high ? 1 : 0)) * 16), ...op.f32x4Mul,
    ...op.get(units), ...op.f32x4Mul,
    ...op.v128Store((2 * k + (high ? 1 : 0)) * 16),
  ];
  const emit: Code = [
    ...op.get(acc), ...op.get(g), ...op.i32Add, ...op.set(sums),
    ...[0, 1, 2, 3].flatMap((k) => [...emitHalf(k, false), ...emitHalf(k, true)]),
    ...op.get(out), ...op.i32(128), ...op.i32Add, ...op.set(out),
    ...op.get(scales), ...op.i32(128), ...op.i32Add, ...op.set(scales),
  ];
  const superblock: Code = [
    ...fromZero(g, [...op.get(groupBytes), ...op.i32(4), ...op.i32Mul], clear, 16),
    ...op.get(list), ...op.set(p), ...op.get(tables), ...op.set(tp),
    ...loopUntil(p, op.get(listEnd), pair, [[p, 8], [tp, 32]]),
    ...fromZero(g, [...op.get(groupBytes), ...op.i32(4), ...op.i32Mul], emit, 64),
    ...op.get(columns), ...op.get(superBytes), ...op.i32Add, ...op.set(columns),
  ];
  return {
    name: 'columnScan',
    params: [t.i32, t.i32, t.i32, t.i32, t.i32, t.i32, t.i32, t.i32, t.i32, t.f32, t.i32],
    locals: [t.i32, t.i32, t.i32, t.i32, t.i32, t.i32, t.i32, t.i32, t.v128, t.v128, t.v128, t.v128, t.v128, t.v128, t.v128, t.v128],
    body: [
      ...op.get(columns), ...op.get(superblocks), ...op.get(superBytes), ...op.i32Mul, ...op.i32Add, ...op.set(end),
      ...op.get(list), ...op.get(count), ...op.i32(4), ...op.i32Mul, ...op.i32Add, ...op.set(listEnd),
      ...op.i32(0x0f), ...op.i8x16Splat, ...op.set(mask),
      ...op.get(unit), ...op.f32x4Splat, ...op.set(units),
      ...loopUntil(columns, op.get(end), superblock, []),
    ],
  };
}
