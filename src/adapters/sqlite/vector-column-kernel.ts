import { loopUntil, op, type Code, type FunctionDef, type as t, type ValueType } from './vector-wasm.ts';

/**
 * The column scan (see vector-columns.ts): for every slot, Σ over the query's listed dimensions
 * of table[dimension][nibble], where each 16-entry int8 table holds the query's level times the
 * nibble's value. Memory per superblock of S slots: for each dimension, S/2 bytes in groups of
 * 16, byte j of group g holding slot 32g + j in its low nibble and slot 32g + 16 + j in its high.
 * A superblock is read a dimension at a time, four at once, so each listed column is one
 * sequential stream (the hardware prefetches it; reading 32 slots' dimensions at a time was
 * twice as slow at 1M vectors), and sums gather in `acc` (S int16s, which stay in cache).
 * Each pair of int8 products (at most 56 apart from zero each) fits an int8 lane; the int16
 * sums hold up to 585 listed dimensions.
 */
export function columnScanFunction(): FunctionDef {
  const [columns, superblocks, superBytes, groupBytes, list, count, tables, scales, out, unit, acc] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
  const [end, listEnd, g, c1, c2, c3, c4, p, tp, sums] = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20] as const;
  const [b1, b2, b3, b4, t1, t2, t3, t4, loA, hiA, loB, hiB, mask, units] = [21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34] as const;
  const fromZero = (cursor: number, limit: Code, body: Code, step: number): Code => [...op.i32(0), ...op.set(cursor), ...loopUntil(cursor, limit, body, [[cursor, step]])];
  const nibbles = (bytes: number, high: boolean): Code => [...op.get(bytes), ...(high ? [...op.i32(4), ...op.i16x8ShrU] : []), ...op.get(mask), ...op.v128And];
  /** Two columns' lookups added as int8s (each product at most 56 from zero, so the pair fits). */
  const lookups = (ta: number, ba: number, tb: number, bb: number, high: boolean): Code => [
    ...op.get(ta), ...nibbles(ba, high), ...op.i8x16Swizzle,
    ...op.get(tb), ...nibbles(bb, high), ...op.i8x16Swizzle,
    ...op.i8x16Add,
  ];
  /** Both pairs widened and added, then added to the sums once: half the sums' loads and stores of a pair at a time. */
  const accumulate = (k: number, a: number, b: number, widen: Code): Code => [
    ...op.get(sums), ...op.get(sums), ...op.v128Load(k * 16), ...op.get(a), ...widen, ...op.i16x8Add, ...op.get(b), ...widen, ...op.i16x8Add, ...op.v128Store(k * 16),
  ];
  const load = (column: number, into: number): Code => [...op.get(column), ...op.get(g), ...op.i32Add, ...op.v128Load(), ...op.set(into)];
  // 16 bytes of four columns: 32 slots, whose sums sit at acc + 4g (g counts column bytes).
  const group: Code = [
    ...load(c1, b1), ...load(c2, b2), ...load(c3, b3), ...load(c4, b4),
    ...lookups(t1, b1, t2, b2, false), ...op.set(loA),
    ...lookups(t1, b1, t2, b2, true), ...op.set(hiA),
    ...lookups(t3, b3, t4, b4, false), ...op.set(loB),
    ...lookups(t3, b3, t4, b4, true), ...op.set(hiB),
    ...op.get(g), ...op.i32(4), ...op.i32Mul, ...op.get(acc), ...op.i32Add, ...op.set(sums),
    ...accumulate(0, loA, loB, op.i16x8FromLowI8), ...accumulate(1, loA, loB, op.i16x8FromHighI8),
    ...accumulate(2, hiA, hiB, op.i16x8FromLowI8), ...accumulate(3, hiA, hiB, op.i16x8FromHighI8),
  ];
  const quad: Code = [
    ...[c1, c2, c3, c4].flatMap((c, k) => [...op.get(columns), ...op.get(p), ...op.i32Load(k * 4), ...op.i32Add, ...op.set(c)]),
    ...[t1, t2, t3, t4].flatMap((t, k) => [...op.get(tp), ...op.v128Load(k * 16), ...op.set(t)]),
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
    ...loopUntil(p, op.get(listEnd), quad, [[p, 16], [tp, 64]]),
    ...fromZero(g, [...op.get(groupBytes), ...op.i32(4), ...op.i32Mul], emit, 64),
    ...op.get(columns), ...op.get(superBytes), ...op.i32Add, ...op.set(columns),
  ];
  return {
    name: 'columnScan',
    params: [t.i32, t.i32, t.i32, t.i32, t.i32, t.i32, t.i32, t.i32, t.i32, t.f32, t.i32],
    locals: [...Array<ValueType>(10).fill(t.i32), ...Array<ValueType>(14).fill(t.v128)],
    body: [
      ...op.get(columns), ...op.get(superblocks), ...op.get(superBytes), ...op.i32Mul, ...op.i32Add, ...op.set(end),
      ...op.get(list), ...op.get(count), ...op.i32(4), ...op.i32Mul, ...op.i32Add, ...op.set(listEnd),
      ...op.i32(0x0f), ...op.i8x16Splat, ...op.set(mask),
      ...op.get(unit), ...op.f32x4Splat, ...op.set(units),
      ...loopUntil(columns, op.get(end), superblock, []),
    ],
  };
}
