import test from 'ava';
import { codeShape, encoderFor, recordFields } from '../../src/adapters/sqlite/vector-codes.ts';
import { instantiateKernels } from '../../src/adapters/sqlite/vector-kernels.ts';
import { collectListed, createTopK, keepBest, sampleCut } from '../../src/adapters/sqlite/vector-select.ts';
import { cosine, seededVectors } from '../helpers/vectors.ts';

const { random, randomVector } = seededVectors(11);

/** Memory laid out as the mirror does it, small enough to check every slot against plain loops. */
function kernelsFor(bitBytes: number, codeBytes: number, slots: number) {
  const tables = 0;
  const query = bitBytes * 32;
  const blocks = query + codeBytes * 2;
  const meta = blocks + slots * bitBytes;
  const codes = meta + slots * 8;
  const scales = codes + slots * codeBytes;
  const list = scales + slots * 4;
  const out = list + slots * 4;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((out + slots * 4) / 65536) + 1 });
  const kernels = instantiateKernels({ bitBytes, codeBytes }, memory);
  return { kernels, memory, at: { tables, query, blocks, meta, codes, scales, list, out } };
}

for (const bitBytes of [16, 64, 256]) {
  test(`scan: table lookups over byte-interleaved sign codes match plain loops (${bitBytes * 8} bits)`, (t) => {
    const slots = 48;
    const { kernels, memory, at } = kernelsFor(bitBytes, 16, slots);
    const u8 = new Uint8Array(memory.buffer);
    const f32 = new Float32Array(memory.buffer);
    for (let i = 0; i < bitBytes * 32; i++) u8[at.tables + i] = Math.floor(random() * 61);
    for (let i = 0; i < slots * bitBytes; i++) u8[at.blocks + i] = Math.floor(random() * 256);
    for (let i = 0; i < slots * 2; i++) f32[(at.meta >> 2) + i] = random() * 10;
    kernels.scan(at.blocks, slots / 16, at.tables, at.meta, at.out, 0.5, -0.25, 3);
    for (let slot = 0; slot < slots; slot++) {
      const block = slot >> 4;
      const lane = slot & 15;
      let sum = 0;
      for (let j = 0; j < bitBytes; j++) {
        const byte = u8[at.blocks + block * bitBytes * 16 + j * 16 + lane]!;
        sum += u8[at.tables + 2 * j * 16 + (byte & 15)]! + u8[at.tables + (2 * j + 1) * 16 + (byte >> 4)]!;
      }
      const popcount = f32[(at.meta >> 2) + block * 32 + lane]!;
      const inverseL1 = f32[(at.meta >> 2) + block * 32 + 16 + lane]!;
      const expected = (0.5 * sum - 0.25 * popcount + 3) * inverseL1;
      t.true(Math.abs(f32[(at.out >> 2) + slot]! - expected) <= Math.abs(expected) * 1e-6 + 1e-3, `slot ${slot}`);
    }
  });
}

test('rescore: int8 codes against an int16 query, times each slot’s scale, for listed slots', (t) => {
  const slots = 40;
  const codeBytes = 48;
  const { kernels, memory, at } = kernelsFor(16, codeBytes, slots);
  const i8 = new Int8Array(memory.buffer);
  const i16 = new Int16Array(memory.buffer);
  const i32 = new Int32Array(memory.buffer);
  const f32 = new Float32Array(memory.buffer);
  for (let i = 0; i < codeBytes; i++) i16[(at.query >> 1) + i] = Math.round((random() * 2 - 1) * 16383);
  for (let i = 0; i < slots * codeBytes; i++) i8[at.codes + i] = Math.round((random() * 2 - 1) * 127);
  for (let i = 0; i < slots; i++) f32[(at.scales >> 2) + i] = random();
  const listed = [39, 0, 7, 7, 22];
  i32.set(listed, at.list >> 2);
  kernels.rescore(at.codes, at.scales, at.query, at.list, listed.length, at.out);
  listed.forEach((slot, k) => {
    let dot = 0;
    for (let i = 0; i < codeBytes; i++) dot += i8[at.codes + slot * codeBytes + i]! * i16[(at.query >> 1) + i]!;
    const expected = dot * f32[(at.scales >> 2) + slot]!;
    t.true(Math.abs(f32[(at.out >> 2) + k]! - expected) <= Math.abs(expected) * 1e-6 + 1e-3, `slot ${slot}`);
  });
});

test('collect: the slots whose score reaches the cut, in order, ignoring the padding past count', (t) => {
  const { kernels, memory, at } = kernelsFor(16, 16, 64);
  const f32 = new Float32Array(memory.buffer);
  const i32 = new Int32Array(memory.buffer);
  const scores = Array.from({ length: 64 }, () => random());
  f32.set(scores, at.out >> 2);
  const count = 61;
  const kept = kernels.collect(at.out, count, 0.7, at.list);
  const expected = scores.flatMap((s, slot) => (slot < count && Math.fround(s) >= Math.fround(0.7) ? [slot] : []));
  t.deepEqual(Array.from(i32.subarray(at.list >> 2, (at.list >> 2) + kept)), expected);
});

test('selection helpers: top-k heap, sampled cut-off, narrowing to about k', (t) => {
  const scores = Float32Array.from({ length: 5000 }, () => random());
  const top = createTopK(4);
  top.reset(10);
  scores.forEach((s, slot) => top.push(s, slot));
  const best = [...scores.keys()].sort((a, b) => scores[b]! - scores[a]!).slice(0, 10);
  t.deepEqual(top.drain().map((h) => h.slot), best);

  const into = new Int32Array(5000);
  const listed = [...scores.keys()].filter((i) => i % 2 === 0);
  const cut = sampleCut(scores, listed, 300, 1.25);
  const kept = collectListed(scores, listed, cut, into);
  t.true(kept > 200 && kept < 600, `kept ${kept}`);
  const narrowed = keepBest(scores, into, kept, 100);
  t.true(narrowed >= 100 && narrowed < 130, `narrowed ${narrowed}`);
  const bestListed = listed.sort((a, b) => scores[b]! - scores[a]!).slice(0, 100);
  const keptSet = new Set(into.subarray(0, narrowed));
  t.true(bestListed.every((slot) => keptSet.has(slot)));
});

test('codes: int8 rescoring gives the cosine to ±0.005, and the sign-code estimate ranks like it', (t) => {
  for (const dims of [3, 100, 512, 1536]) {
    const encoder = encoderFor(dims);
    const shape = codeShape(dims);
    const q = randomVector(dims);
    const query = encoder.encodeQuery(q);
    const pairs: [number, number][] = [];
    for (let n = 0; n < 200; n++) {
      // Mixed with the query so that cosines spread over −1..1, not just around 0.
      const mix = random() * 2 - 1;
      const v = randomVector(dims).map((x, i) => x + mix * 3 * q[i]!);
      const record = encoder.encode(v);
      t.is(record.length, shape.recordBytes);
      const code = new Int8Array(record.buffer, 0, shape.codeBytes);
      const { scale, popcount, inverseL1 } = recordFields(record, shape);
      let dot = 0;
      for (let i = 0; i < shape.codeBytes; i++) dot += code[i]! * query.query[i]!;
      const exact = cosine(v, q);
      t.true(Math.abs((dot * scale) / query.queryScale - exact) < 0.005, `width ${dims}: ${(dot * scale) / query.queryScale} vs ${exact}`);
      if (shape.bitBytes === 0) continue;
      let lookups = 0;
      for (let j = 0; j < shape.bitBytes; j++) {
        const byte = record[shape.codeBytes + j]!;
        lookups += query.tables[2 * j * 16 + (byte & 15)]! + query.tables[(2 * j + 1) * 16 + (byte >> 4)]!;
      }
      pairs.push([exact, (query.k1 * lookups + query.k2 * popcount + query.k3) * inverseL1]);
    }
    if (pairs.length === 0) continue;
    // The estimate is unbiased with an error that shrinks as 1/√dims: well above 0.9 correlation here.
    const n = pairs.length;
    const mean = (f: (p: [number, number]) => number) => pairs.reduce((s, p) => s + f(p), 0) / n;
    const [mx, my] = [mean((p) => p[0]), mean((p) => p[1])];
    const r = mean((p) => (p[0] - mx) * (p[1] - my)) / Math.sqrt(mean((p) => (p[0] - mx) ** 2) * mean((p) => (p[1] - my) ** 2));
    t.true(r > 0.9, `width ${dims}: correlation ${r}`);
  }
});

test('codes: a zero vector scores 0, and a wrong width or a NaN is refused', (t) => {
  const encoder = encoderFor(128);
  const record = encoder.encode(new Float32Array(128));
  t.is(recordFields(record, encoder.shape).scale, 0);
  t.throws(() => encoder.encode(new Float32Array(127)), { message: /expected 128 dimensions/ });
  t.throws(() => encoder.encode(new Float32Array(128).fill(Number.NaN)), { message: /non-finite/ });
});
