/**
 * Just enough of the WebAssembly binary format to emit the vector kernels at run time, so that
 * each vector width gets loops unrolled for it and no build step or binary blob is needed.
 * Opcodes follow the WebAssembly 2.0 specification (fixed-width SIMD included).
 */

export type Code = number[];

const uleb = (value: number): Code => {
  const out: Code = [];
  let n = value >>> 0;
  do {
    const byte = n & 0x7f;
    n >>>= 7;
    out.push(n ? byte | 0x80 : byte);
  } while (n);
  return out;
};

const sleb = (value: number): Code => {
  const out: Code = [];
  let n = value | 0;
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    const done = (n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
};

export const type = { i32: 0x7f, f32: 0x7d, v128: 0x7b } as const;
export type ValueType = (typeof type)[keyof typeof type];

const simd = (opcode: number, ...immediates: number[]): Code => [0xfd, ...uleb(opcode), ...immediates];
/** Loads and stores: alignment as a power of two, then a constant byte offset. */
const memarg = (alignLog2: number, offset: number): Code => [...uleb(alignLog2), ...uleb(offset)];

export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (local: number) => [0x20, ...uleb(local)],
  set: (local: number) => [0x21, ...uleb(local)],
  i32: (value: number) => [0x41, ...sleb(value)],
  i32Load: (offset = 0) => [0x28, ...memarg(2, offset)],
  f32Load: (offset = 0) => [0x2a, ...memarg(2, offset)],
  i32Store: (offset = 0) => [0x36, ...memarg(2, offset)],
  f32Store: (offset = 0) => [0x38, ...memarg(2, offset)],
  i32LtU: [0x49],
  i32GeU: [0x4f],
  f32Ge: [0x60],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32Mul: [0x6c],
  i32And: [0x71],
  i32ShrU: [0x76],
  f32Mul: [0x94],
  f32FromI32: [0xb2],
  v128Load: (offset = 0) => simd(0x00, ...memarg(4, offset)),
  v128Store: (offset = 0) => simd(0x0b, ...memarg(4, offset)),
  v128Zero: simd(0x0c, ...new Array<number>(16).fill(0)),
  i8x16Swizzle: simd(0x0e),
  i8x16Splat: simd(0x0f),
  f32x4Splat: simd(0x13),
  i32x4Lane: (lane: number) => simd(0x1b, lane),
  f32x4Ge: simd(0x46),
  v128And: simd(0x4e),
  v128AnyTrue: simd(0x53),
  i8x16Add: simd(0x6e),
  i16x8FromLowI8: simd(0x87),
  i16x8FromHighI8: simd(0x88),
  i16x8FromLowU8: simd(0x89),
  i16x8FromHighU8: simd(0x8a),
  i16x8ShrU: simd(0x8d),
  i16x8Add: simd(0x8e),
  i32x4FromLowI16: simd(0xa7),
  i32x4FromHighI16: simd(0xa8),
  i32x4FromLowU16: simd(0xa9),
  i32x4FromHighU16: simd(0xaa),
  i32x4Add: simd(0xae),
  i32x4DotI16: simd(0xba),
  f32x4Add: simd(0xe4),
  f32x4Mul: simd(0xe6),
  f32x4FromI32: simd(0xfa),
};

/** `while (cursor < limit) { body; cursor += step; …other advances }`, `limit` any i32 expression. */
export const loopUntil = (cursor: number, limit: Code, body: Code, advances: [local: number, step: number][]): Code => [
  ...op.block, ...op.loop,
  ...op.get(cursor), ...limit, ...op.i32GeU, ...op.brIf(1),
  ...body,
  ...advances.flatMap(([local, step]) => [...op.get(local), ...op.i32(step), ...op.i32Add, ...op.set(local)]),
  ...op.br(0),
  ...op.end, ...op.end,
];

export type FunctionDef = { name: string; params: ValueType[]; results?: ValueType[]; locals: ValueType[]; body: Code };

const vec = (items: Code[]): Code => [...uleb(items.length), ...items.flat()];
const section = (id: number, payload: Code): Code => [id, ...uleb(payload.length), ...payload];
const name = (text: string): Code => vec([...Buffer.from(text, 'utf8')].map((b) => [b]));

/** A module that imports its memory as env.memory and exports each function under its name. */
export function encodeModule(functions: FunctionDef[]): Uint8Array<ArrayBuffer> {
  const types = functions.map((f) => [0x60, ...vec(f.params.map((t) => [t])), ...vec((f.results ?? []).map((t) => [t]))]);
  const memoryImport = [...name('env'), ...name('memory'), 0x02, 0x00, 0x01];
  const bodies = functions.map((f) => {
    const locals = vec(f.locals.map((t) => [1, t]));
    const code = [...locals, ...f.body, ...op.end];
    return [...uleb(code.length), ...code];
  });
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types)),
    ...section(2, vec([memoryImport])),
    ...section(3, vec(functions.map((_, i) => uleb(i)))),
    ...section(7, vec(functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)]))),
    ...section(10, vec(bodies)),
  ]);
}
