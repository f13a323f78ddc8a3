import test from 'ava';
import { encoderFor, nibbleOffset, recordFields } from '../../src/adapters/sqlite/vector-codes.ts';
import { columnRegion, usesColumns } from '../../src/adapters/sqlite/vector-columns.ts';
import { instantiateKernels } from '../../src/adapters/sqlite/vector-kernels.ts';
import { createMirror } from '../../src/adapters/sqlite/vector-mirror.ts';
import { cosine, seededVectors } from '../helpers/vectors.ts';

const { random, gaussian } = seededVectors(23);

/** Like the hashing embedder's: `active` of `dims` dimensions non-zero, signed weights. */
function sparseVector(dims: number, active: number, around?: Float32Array): Float32Array {
  const v = new Float32Array(dims);
  if (around) around.forEach((x, i) => (v[i] = x * (0.5 + random())));
  for (let n = 0; n < active; n++) v[Math.floor(random() * dims)]! += gaussian();
  return v;
}

test('column scan: nibble columns summed over the listed dimensions match plain loops, over whole and partial superblocks', (t) => {
  const dims = 40;
  const superSlots = 64;
  const superblocks = 3;
  const slots = superSlots * superblocks;
  const superBytes = dims * (superSlots / 2);
  // The kernel reads four columns at a time: a query lists a multiple of four (createColumnQuery pads).
  const listed = [3, 4, 17, 39, 0, 22, 5, 30];
  const [list, tables, sums, scales, out, columns] = [0, 64, 64 + 16 * listed.length, 1024, 2048, 4096];
  const memory = new WebAssembly.Memory({ initial: 1 });
  const kernels = instantiateKernels({ bitBytes: 16, codeBytes: 16 }, memory);
  const u8 = new Uint8Array(memory.buffer);
  const i8 = new Int8Array(memory.buffer);
  const i32 = new Int32Array(memory.buffer);
  const f32 = new Float32Array(memory.buffer);
  const packed = Array.from({ length: slots }, () => Uint8Array.from({ length: dims / 2 }, () => Math.floor(random() * 256)));
  const region = columnRegion(dims, superSlots, columns);
  packed.forEach((nibbles, slot) => region.write(u8, slot, nibbles, 0));
  const levels = listed.map(() => Math.round(random() * 14) - 7);
  listed.forEach((dim, i) => {
    i32[(list >> 2) + i] = dim * (superSlots / 2);
    for (let nibble = 0; nibble < 16; nibble++) i8[tables + i * 16 + nibble] = levels[i]! * (nibble - 8);
  });
  for (let slot = 0; slot < slots; slot++) f32[(scales >> 2) + slot] = random();
  const unit = 0.25;
  // Two superblocks and a half: the kernel reads whole superblocks and writes their every slot.
  kernels.columnScan(columns, superblocks, superBytes, superSlots / 2, list, listed.length, tables, scales, out, unit, sums);
  const nibbleOf = (slot: number, dim: number) => (packed[slot]![dim >> 1]! >> ((dim & 1) * 4)) & 15;
  for (let slot = 0; slot < slots; slot++) {
    const sum = listed.reduce((s, dim, i) => s + levels[i]! * (nibbleOf(slot, dim) - 8), 0);
    t.is(f32[(out >> 2) + slot], Math.fround(Math.fround(sum * f32[(scales >> 2) + slot]!) * unit), `slot ${slot}`);
  }
  const back = new Uint8Array(dims / 2);
  region.read(u8, 100, back);
  t.deepEqual(back, packed[100]);
});

test('codes: the query lists its non-zero dimensions, and the 4-bit estimate is within its rounding of the cosine', (t) => {
  const dims = 512;
  const encoder = encoderFor(dims);
  const shape = encoder.shape;
  const q = sparseVector(dims, 60);
  const query = encoder.encodeQuery(q);
  const { columns } = query;
  const nonZero = [...q.keys()].filter((i) => q[i] !== 0);
  const listed = [...columns.dimensions.subarray(0, columns.count)];
  t.true(columns.count % 4 === 0 && listed.every((d) => nonZero.includes(d)) && listed.length >= nonZero.length * 0.8, `${listed.length} listed of ${nonZero.length}`);
  t.true(usesColumns(columns.count, shape.bitBytes));
  t.false(usesColumns(400, shape.bitBytes), 'a dense query keeps the sign scan');
  for (let n = 0; n < 100; n++) {
    const v = sparseVector(dims, 200, random() < 0.5 ? q : undefined);
    const record = encoder.encode(v);
    const { nibbleScale } = recordFields(record, shape);
    let sum = 0;
    for (let i = 0; i < columns.count; i++) {
      const dim = columns.dimensions[i]!;
      const nibble = (record[nibbleOffset(shape) + (dim >> 1)]! >> ((dim & 1) * 4)) & 15;
      sum += columns.tables[i * 16 + nibble]!;
    }
    const spread = Math.hypot(nibbleScale, columns.unit) / Math.sqrt(12);
    t.true(Math.abs(sum * nibbleScale * columns.unit - cosine(v, q)) < 5 * spread, `estimate ${sum * nibbleScale * columns.unit} against ${cosine(v, q)}`);
  }
});

test('a mirror searched by columns finds exact search’s best, through growth, removals, moves and a filter', (t) => {
  const dims = 512;
  const encoder = encoderFor(dims);
  let columnSearches = 0;
  const mirror = createMirror(dims, { columnShortlist: (k) => (columnSearches++, Math.max(60, 3 * k)) });
  const stored = new Map<string, Float32Array>();
  const topics = Array.from({ length: 30 }, () => sparseVector(dims, 80));
  // One at a time, so the columns are laid out again at every superblock size from 64 up.
  for (let i = 0; i < 5000; i++) {
    const v = sparseVector(dims, 120, topics[i % topics.length]);
    stored.set(`c${i}`, v);
    mirror.put(`c${i}`, `d${i % 50}`, encoder.encode(v));
  }
  for (let i = 0; i < 5000; i += 7) {
    mirror.remove(`c${i}`);
    stored.delete(`c${i}`);
  }
  const exact = (q: Float32Array, k: number, keep: (id: string) => boolean = () => true) =>
    [...stored].filter(([id]) => keep(id)).map(([id, v]) => ({ id, score: cosine(v, q) })).sort((a, b) => b.score - a.score).slice(0, k);
  let overlap = 0;
  for (let n = 0; n < 20; n++) {
    const q = sparseVector(dims, 12, topics[n]!.map((x) => (random() < 0.4 ? x : 0)));
    const found = mirror.search(q, 20);
    const best = new Set(exact(q, 20).map((e) => e.id));
    overlap += found.filter((f) => best.has(f.id)).length / 20;
    for (const f of found) t.true(Math.abs(f.score - cosine(stored.get(f.id)!, q)) < 0.01);
  }
  t.true(columnSearches >= 20, 'the sparse queries took the column scan');
  t.true(overlap / 20 >= 0.95, `recall@20 ${overlap / 20}`);
  const q = sparseVector(dims, 12, topics[3]);
  const slots = [...stored.keys()].filter((id) => Number(id.slice(1)) % 50 === 9).map((id) => mirror.slotOf(id)!);
  // The same ten; near-ties may swap places, since the scores are int8 rescorings.
  const filtered = mirror.search(q, 10, slots).map((f) => f.id);
  t.deepEqual(filtered.sort(), exact(q, 10, (id) => Number(id.slice(1)) % 50 === 9).map((e) => e.id).sort());
});
