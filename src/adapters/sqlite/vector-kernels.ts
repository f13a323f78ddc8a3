import { columnScanFunction } from './vector-column-kernel.ts';
import { encodeModule, loopUntil, op, type Code, type FunctionDef, type as t } from './vector-wasm.ts';

/**
 * The loops a query spends its time in, as WebAssembly SIMD (V8 does not vectorise JavaScript;
 * at 100k × 512 the scan takes about 0.8 ms here, several times less than typed-array loops).
 * Arguments are byte offsets into the memory the kernels were instantiated over.
 */
export type Kernels = {
  /**
   * For every slot of `blocks` sign-code blocks (16 slots each, byte-interleaved: byte j of the
   * 16 codes is contiguous), an estimate of its cosine with the query: each nibble of the code
   * indexes that nibble's 16-entry table, and the sum s gives (k1·s + k2·popcount + k3)·inverseL1,
   * popcount and inverseL1 read from `meta` (per block: 16 of each, as float32). Writes float32s.
   */
  scan(blocks: number, blockCount: number, tables: number, meta: number, out: number, k1: number, k2: number, k3: number): void;
  /** Slots 0..count-1 whose score is at least `cut`, written as int32s from `into`; returns how many. */
  collect(scores: number, count: number, cut: number, into: number): number;
  /** For each of `count` int32 slots listed at `slots`: dot(int8 code, int16 query) · scale, as float32. */
  rescore(codes: number, scales: number, query: number, slots: number, count: number, out: number): void;
  /**
   * The query's listed dimensions summed over nibble columns, superblock by superblock (see
   * vector-column-kernel.ts), times each slot's scale and `unit`; writes a float32 per slot.
   */
  columnScan(columns: number, superblocks: number, superBytes: number, groupBytes: number, list: number, count: number, tables: number, scales: number, out: number, unit: number, acc: number): void;
};

export type KernelShape = {
  /** Bytes of one sign code (a multiple of 16), or 0 when the width is too small to shortlist. */
  bitBytes: number;
  /** Bytes of one int8 code (a multiple of 16). */
  codeBytes: number;
};

const modules = new Map<string, WebAssembly.Module>();

/** Kernels unrolled for one code shape, over `memory`; compiled once per shape per process. */
export function instantiateKernels(shape: KernelShape, memory: WebAssembly.Memory): Kernels {
  const key = `${shape.bitBytes}/${shape.codeBytes}`;
  let module = modules.get(key);
  if (!module) modules.set(key, (module = new WebAssembly.Module(encodeModule([scanFunction(shape.bitBytes), collectFunction(), rescoreFunction(shape.codeBytes), columnScanFunction()]))));
  return new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as Kernels;
}

const times = <T>(n: number, f: (i: number) => T[]): T[] => Array.from({ length: n }, (_, i) => f(i)).flat();

const horizontalSum = (local: number): Code => [
  ...op.get(local), ...op.i32x4Lane(0),
  ...op.get(local), ...op.i32x4Lane(1), ...op.i32Add,
  ...op.get(local), ...op.i32x4Lane(2), ...op.i32Add,
  ...op.get(local), ...op.i32x4Lane(3), ...op.i32Add,
];

function scanFunction(bitBytes: number): FunctionDef {
  const [blocks, count, tables, meta, out, k1, k2, k3, end, lo, hi, bytes, sums, mask, m1, m2, m3] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] as const;
  const blockBytes = bitBytes * 16;
  /** Looks up the 16 vectors' nibbles (low or high half of `bytes`) in table `g`. */
  const lookup = (g: number, high: boolean): Code => [
    ...op.get(tables), ...op.v128Load(g * 16),
    ...op.get(bytes), ...(high ? [...op.i32(4), ...op.i16x8ShrU] : []), ...op.get(mask), ...op.v128And,
    ...op.i8x16Swizzle,
  ];
  // Four lookups of at most 60 each fit a u8 lane; wider sums go to u16 lanes (≤ 240·bitBytes/2).
  const pair = (j: number): Code => [
    ...op.get(blocks), ...op.v128Load(j * 16), ...op.set(bytes),
    ...lookup(2 * j, false), ...lookup(2 * j + 1, true), ...op.i8x16Add,
    ...op.get(blocks), ...op.v128Load((j + 1) * 16), ...op.set(bytes),
    ...lookup(2 * j + 2, false), ...op.i8x16Add, ...lookup(2 * j + 3, true), ...op.i8x16Add,
    ...op.set(sums),
    ...op.get(sums), ...op.i16x8FromLowU8, ...op.get(lo), ...op.i16x8Add, ...op.set(lo),
    ...op.get(sums), ...op.i16x8FromHighU8, ...op.get(hi), ...op.i16x8Add, ...op.set(hi),
  ];
  /** Four of the block's 16 estimates: (k1·dot + k2·popcount + k3)·inv. */
  const quarter = (q: number): Code => [
    ...op.get(out),
    ...op.get(q < 2 ? lo : hi), ...(q % 2 === 0 ? op.i32x4FromLowU16 : op.i32x4FromHighU16), ...op.f32x4FromI32, ...op.get(m1), ...op.f32x4Mul,
    ...op.get(meta), ...op.v128Load(q * 16), ...op.get(m2), ...op.f32x4Mul, ...op.f32x4Add,
    ...op.get(m3), ...op.f32x4Add,
    ...op.get(meta), ...op.v128Load(64 + q * 16), ...op.f32x4Mul,
    ...op.v128Store(q * 16),
  ];
  const body: Code = [
    ...op.v128Zero, ...op.set(lo), ...op.v128Zero, ...op.set(hi),
    ...times(bitBytes / 2, (j) => pair(2 * j)),
    ...quarter(0), ...quarter(1), ...quarter(2), ...quarter(3),
  ];
  return {
    name: 'scan',
    params: [t.i32, t.i32, t.i32, t.i32, t.i32, t.f32, t.f32, t.f32],
    locals: [t.i32, t.v128, t.v128, t.v128, t.v128, t.v128, t.v128, t.v128, t.v128],
    body: bitBytes === 0 ? [] : [
      ...op.get(blocks), ...op.get(count), ...op.i32(blockBytes), ...op.i32Mul, ...op.i32Add, ...op.set(end),
      ...op.i32(0x0f), ...op.i8x16Splat, ...op.set(mask),
      ...op.get(k1), ...op.f32x4Splat, ...op.set(m1),
      ...op.get(k2), ...op.f32x4Splat, ...op.set(m2),
      ...op.get(k3), ...op.f32x4Splat, ...op.set(m3),
      ...loopUntil(blocks, op.get(end), body, [[blocks, blockBytes], [meta, 128], [out, 64]]),
    ],
  };
}

function collectFunction(): FunctionDef {
  const [scores, count, cut, into, end, slot, out, cuts] = [0, 1, 2, 3, 4, 5, 6, 7] as const;
  const lane = (l: number): Code => [
    ...op.get(scores), ...op.f32Load(l * 4), ...op.get(cut), ...op.f32Ge,
    ...op.get(slot), ...op.i32(l), ...op.i32Add, ...op.get(count), ...op.i32LtU, ...op.i32And,
    ...op.if,
    ...op.get(out), ...op.get(slot), ...op.i32(l), ...op.i32Add, ...op.i32Store(),
    ...op.get(out), ...op.i32(4), ...op.i32Add, ...op.set(out),
    ...op.end,
  ];
  // Most groups of four have no score above the cut: one SIMD comparison skips them.
  const body: Code = [
    ...op.get(scores), ...op.v128Load(), ...op.get(cuts), ...op.f32x4Ge, ...op.v128AnyTrue,
    ...op.if, ...lane(0), ...lane(1), ...lane(2), ...lane(3), ...op.end,
  ];
  return {
    name: 'collect',
    params: [t.i32, t.i32, t.f32, t.i32],
    results: [t.i32],
    locals: [t.i32, t.i32, t.i32, t.v128],
    body: [
      ...op.get(scores), ...op.get(count), ...op.i32(4), ...op.i32Mul, ...op.i32Add, ...op.set(end),
      ...op.get(cut), ...op.f32x4Splat, ...op.set(cuts),
      ...op.get(into), ...op.set(out),
      ...loopUntil(scores, op.get(end), body, [[scores, 16], [slot, 4]]),
      ...op.get(out), ...op.get(into), ...op.i32Sub, ...op.i32(2), ...op.i32ShrU,
    ],
  };
}

function rescoreFunction(codeBytes: number): FunctionDef {
  const [codes, scales, query, slots, count, out, end, base, acc, code, slot, touched] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] as const;
  const half = (widen: Code, offset: number): Code => [
    ...op.get(code), ...widen, ...op.get(query), ...op.v128Load(offset), ...op.i32x4DotI16, ...op.get(acc), ...op.i32x4Add, ...op.set(acc),
  ];
  const codeAt = (cursor: number): Code => [
    ...op.get(cursor), ...op.i32Load(), ...op.i32(codeBytes), ...op.i32Mul, ...op.get(codes), ...op.i32Add, ...op.set(base),
  ];
  // Candidates are scattered over the codes, so the scoring loop waits on memory one code at a
  // time; a first pass touching every cache line lets the CPU fetch many at once (2x faster).
  const touch: Code = [
    ...codeAt(slot),
    ...times(Math.ceil(codeBytes / 64), (line) => [...op.get(base), ...op.i32Load(line * 64), ...op.get(touched), ...op.i32Add, ...op.set(touched)]),
  ];
  const score: Code = [
    ...codeAt(slots),
    ...op.v128Zero, ...op.set(acc),
    ...times(codeBytes / 16, (c) => [
      ...op.get(base), ...op.v128Load(c * 16), ...op.set(code),
      ...half(op.i16x8FromLowI8, c * 32), ...half(op.i16x8FromHighI8, c * 32 + 16),
    ]),
    ...op.get(out), ...horizontalSum(acc), ...op.f32FromI32,
    ...op.get(slots), ...op.i32Load(), ...op.i32(4), ...op.i32Mul, ...op.get(scales), ...op.i32Add, ...op.f32Load(), ...op.f32Mul,
    ...op.f32Store(),
  ];
  return {
    name: 'rescore',
    params: [t.i32, t.i32, t.i32, t.i32, t.i32, t.i32],
    locals: [t.i32, t.i32, t.v128, t.v128, t.i32, t.i32],
    body: [
      ...op.get(slots), ...op.get(count), ...op.i32(4), ...op.i32Mul, ...op.i32Add, ...op.set(end),
      ...op.get(slots), ...op.set(slot),
      ...loopUntil(slot, op.get(end), touch, [[slot, 4]]),
      // Stored so that the touching loads are not dead code; the first score overwrites it.
      ...op.get(out), ...op.get(touched), ...op.i32Store(),
      ...loopUntil(slots, op.get(end), score, [[slots, 4], [out, 4]]),
    ],
  };
}
