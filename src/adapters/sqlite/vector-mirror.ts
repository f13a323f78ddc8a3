import { encoderFor, nibbleOffset, recordFields } from './vector-codes.ts';
import { columnRegion, paddedCount, superSlotsFor, usesColumns } from './vector-columns.ts';
import { instantiateKernels } from './vector-kernels.ts';
import { collectListed, createTopK, keepBest, sampleCut } from './vector-select.ts';

export type MirrorHit = { id: string; documentId: string; score: number };

export type MirrorOptions = {
  /**
   * How many of the scan's best estimates go to int8 rescoring first (never fewer than topK).
   * Each 1,000 rescored costs 0.1–0.2 ms, waiting on memory for codes scattered over 50 MB.
   */
  shortlist?: (topK: number) => number;
  /**
   * Then, in units of the scan's typical error, how far below the k-th best score so far an
   * estimate may be and still be rescored. Measured at 100k × 512 hashing-embedder vectors,
   * topK 100, recall against exact search: SciFact text 0.971 with a fixed shortlist of 2,000
   * and no margin, 0.980 with 1,000 then 1.5 (2,200 rescored on average), 0.989 with 1,000
   * then 2 (3,800); random word salad, whose neighbours are barely nearer than the rest, 0.90
   * with 2,000 and no margin, 0.975 with 1,000 then 1.5 (5,500 rescored).
   */
  errorMargin?: number;
  /** The shortlist after a column scan (vector-columns.ts), whose estimates err far less. */
  columnShortlist?: (topK: number) => number;
};

const defaultShortlist = (topK: number) => Math.max(1000, 10 * topK);
const defaultColumnShortlist = (topK: number) => Math.max(300, 3 * topK);

/**
 * One namespace's vectors of one width, in memory, compressed (see vector-codes.ts), searched
 * with SIMD kernels (vector-kernels.ts): a scan of every sign code estimates each cosine, and
 * the best estimates, plus any close enough to the best scores found to be within the scan's
 * error, are scored with their int8 codes. About 600 bytes per 512-dimension vector, against
 * 2 KB as floats.
 * Slots are dense: removing one moves the last into its place.
 *
 * Linear memory holds, at offsets that move only when the capacity grows:
 * - per slot: sign codes in blocks of 16 slots, byte-interleaved (byte j of the 16 codes is
 *   contiguous, the layout the scan's table lookups need), their popcount and inverse L1 norm,
 *   the int8 code and its scale;
 * - per query: lookup tables, the int16 query, the candidate list and the two kernels' outputs.
 */
export function createMirror(dims: number, options: MirrorOptions = {}) {
  const shortlistFor = options.shortlist ?? defaultShortlist;
  const columnShortlistFor = options.columnShortlist ?? defaultColumnShortlist;
  const marginFactor = options.errorMargin ?? 1.5;
  // The scan's estimate of a cosine errs by about 0.76/√(rotated dims): RaBitQ's bound for 1-bit codes.
  const errorMargin = (marginFactor * 0.76) / Math.sqrt(Math.max(1, encoderFor(dims).shape.rotatedDims));
  const encoder = encoderFor(dims);
  const { shape } = encoder;
  const { codeBytes, bitBytes, nibbleBytes } = shape;
  const nibbles = nibbleOffset(shape);
  const packed = new Uint8Array(nibbleBytes);
  let largestNibbleScale = 0;
  const memory = new WebAssembly.Memory({ initial: 1 });
  const kernels = instantiateKernels(shape, memory);
  const top = createTopK(16);
  const ids: string[] = [];
  const documentIds: string[] = [];
  const slotOf = new Map<string, number>();

  let capacity = 0;
  let at = layout(0);
  let u8 = new Uint8Array(memory.buffer);
  let i16 = new Int16Array(memory.buffer);
  let i32 = new Int32Array(memory.buffer);
  let f32 = new Float32Array(memory.buffer);

  function layout(slots: number) {
    let offset = 0;
    const take = (bytes: number) => {
      const start = offset;
      offset += Math.ceil(bytes / 16) * 16;
      return start;
    };
    const superSlots = superSlotsFor(slots);
    // The column scan writes whole superblocks, so its outputs and scales are sized in them.
    const columnSlots = nibbleBytes ? Math.ceil(slots / superSlots) * superSlots : 0;
    const superBytes = dims * (superSlots / 2);
    const at = {
      superSlots,
      superBytes,
      tables: take(bitBytes * 32),
      query: take(codeBytes * 2),
      list: take(nibbleBytes ? paddedCount(dims) * 4 : 0),
      columnTables: take(nibbleBytes ? paddedCount(dims) * 16 : 0),
      sums: take(nibbleBytes ? superSlots * 2 : 0),
      blocks: take(slots * bitBytes),
      meta: take(slots * 8),
      codes: take(slots * codeBytes),
      scales: take(slots * 4),
      nibbleScales: take(columnSlots * 4),
      candidates: take(slots * 4),
      scores: take(Math.max(slots, columnSlots) * 4),
      dots: take(slots * 4),
      // Last, so that growing moves it first (see reserve).
      columns: take((columnSlots / superSlots) * superBytes),
      end: offset,
    };
    return { ...at, region: columnRegion(dims, superSlots, at.columns) };
  }

  const reserve = (wanted: number) => {
    if (wanted <= capacity) return;
    const slots = Math.ceil(Math.max(wanted, capacity * 1.5, 64) / 16) * 16;
    const next = layout(slots);
    const pages = Math.ceil(next.end / 65536) - memory.buffer.byteLength / 65536;
    if (pages > 0) memory.grow(pages);
    u8 = new Uint8Array(memory.buffer);
    // A superblock of another size is laid out again; the old columns are read from a copy.
    const relaid = next.superSlots === at.superSlots ? undefined : u8.slice(at.columns, at.end);
    if (!relaid) u8.copyWithin(next.columns, at.columns, at.end);
    // Every region only moves up, so moving the last first never overwrites one not yet moved.
    const kept: ['nibbleScales' | 'scales' | 'codes' | 'meta' | 'blocks', number][] = [['nibbleScales', 4], ['scales', 4], ['codes', codeBytes], ['meta', 8], ['blocks', bitBytes]];
    for (const [region, bytesPerSlot] of kept) u8.copyWithin(next[region], at[region], at[region] + capacity * bytesPerSlot);
    if (relaid) {
      u8.fill(0, next.columns, next.end);
      const old = columnRegion(dims, at.superSlots, 0);
      for (let slot = 0; slot < ids.length; slot++) {
        old.read(relaid, slot, packed);
        next.region.write(u8, slot, packed, 0);
      }
    }
    i16 = new Int16Array(memory.buffer);
    i32 = new Int32Array(memory.buffer);
    f32 = new Float32Array(memory.buffer);
    at = next;
    capacity = slots;
  };

  const write = (slot: number, record: Uint8Array) => {
    const { scale, popcount, inverseL1, nibbleScale } = recordFields(record, shape);
    u8.set(record.subarray(0, codeBytes), at.codes + slot * codeBytes);
    f32[(at.scales >> 2) + slot] = scale;
    if (bitBytes === 0) return;
    f32[(at.nibbleScales >> 2) + slot] = nibbleScale;
    largestNibbleScale = Math.max(largestNibbleScale, nibbleScale);
    at.region.write(u8, slot, record, nibbles);
    const lane = at.blocks + (slot >> 4) * bitBytes * 16 + (slot & 15);
    for (let j = 0; j < bitBytes; j++) u8[lane + j * 16] = record[codeBytes + j]!;
    const meta = (at.meta >> 2) + (slot >> 4) * 32 + (slot & 15);
    f32[meta] = popcount;
    f32[meta + 16] = inverseL1;
  };

  const move = (from: number, to: number) => {
    u8.copyWithin(at.codes + to * codeBytes, at.codes + from * codeBytes, at.codes + (from + 1) * codeBytes);
    f32[(at.scales >> 2) + to] = f32[(at.scales >> 2) + from]!;
    if (bitBytes === 0) return;
    f32[(at.nibbleScales >> 2) + to] = f32[(at.nibbleScales >> 2) + from]!;
    at.region.read(u8, from, packed);
    at.region.write(u8, to, packed, 0);
    const source = at.blocks + (from >> 4) * bitBytes * 16 + (from & 15);
    const target = at.blocks + (to >> 4) * bitBytes * 16 + (to & 15);
    for (let j = 0; j < bitBytes; j++) u8[target + j * 16] = u8[source + j * 16]!;
    const sourceMeta = (at.meta >> 2) + (from >> 4) * 32 + (from & 15);
    const targetMeta = (at.meta >> 2) + (to >> 4) * 32 + (to & 15);
    f32[targetMeta] = f32[sourceMeta]!;
    f32[targetMeta + 16] = f32[sourceMeta + 16]!;
  };

  /** int8 scores of the first `count` candidates, offered to `top`. */
  const rescore = (count: number) => {
    kernels.rescore(at.codes, at.scales, at.query, at.candidates, count, at.dots);
    const candidates = at.candidates >> 2;
    const dots = at.dots >> 2;
    for (let i = 0; i < count; i++) top.push(f32[dots + i]!, i32[candidates + i]!);
  };

  const hits = (queryScale: number): MirrorHit[] =>
    top.drain().map(({ slot, score }) => ({
      id: ids[slot]!,
      documentId: documentIds[slot]!,
      score: Math.max(-1, Math.min(1, score / queryScale)),
    }));

  /** Estimates from the query's own dimensions' nibble columns, into the scores. */
  const scanColumns = (columns: ReturnType<typeof encoder.encodeQuery>['columns']) => {
    const half = at.superSlots / 2;
    for (let i = 0; i < columns.count; i++) i32[(at.list >> 2) + i] = columns.dimensions[i]! * half;
    u8.set(new Uint8Array(columns.tables.buffer, 0, columns.count * 16), at.columnTables);
    const superblocks = Math.ceil(ids.length / at.superSlots);
    kernels.columnScan(at.columns, superblocks, at.superBytes, half, at.list, columns.count, at.columnTables, at.nibbleScales, at.scores, columns.unit, at.sums);
  };

  /** Slots (all, or those listed) whose scan estimate reaches `cut`, into the candidate list. */
  const collect = (cut: number, pool: number, within: readonly number[] | undefined) =>
    within ? collectListed(f32.subarray(at.scores >> 2), within, cut, i32.subarray(at.candidates >> 2)) : kernels.collect(at.scores, pool, cut, at.candidates);

  return {
    dims,
    get size() {
      return ids.length;
    },
    /** Room for `wanted` vectors in all, so that a bulk load grows the memory once (it never shrinks). */
    reserve,
    slotOf: (id: string) => slotOf.get(id),
    /** Adds or replaces one vector, given its code record (see vector-codes.ts). */
    put(id: string, documentId: string, record: Uint8Array) {
      if (record.length !== shape.recordBytes) throw new Error(`expected a ${shape.recordBytes}-byte code record, got ${record.length}`);
      let slot = slotOf.get(id);
      if (slot === undefined) {
        reserve(ids.length + 1);
        slot = ids.length;
        ids.push(id);
        documentIds.push(documentId);
        slotOf.set(id, slot);
      } else {
        documentIds[slot] = documentId;
      }
      write(slot, record);
    },
    remove(id: string) {
      const slot = slotOf.get(id);
      if (slot === undefined) return;
      const last = ids.length - 1;
      if (slot !== last) {
        move(last, slot);
        ids[slot] = ids[last]!;
        documentIds[slot] = documentIds[last]!;
        slotOf.set(ids[slot]!, slot);
      }
      ids.pop();
      documentIds.pop();
      slotOf.delete(id);
    },
    /**
     * The `topK` nearest by cosine, best first; with `within`, only among those slots, which are
     * searched the same way however far down the unfiltered ranking they sit.
     */
    search(vector: Float32Array, topK: number, within?: readonly number[]): MirrorHit[] {
      const pool = within ? within.length : ids.length;
      if (pool === 0 || topK < 1) return [];
      const query = encoder.encodeQuery(vector);
      i16.set(query.query, at.query >> 1);
      const candidates = at.candidates >> 2;
      let shortlist = Math.max(topK, shortlistFor(topK));
      top.reset(topK);
      if (bitBytes === 0 || pool <= shortlist) {
        if (within) i32.set(within, candidates);
        else for (let slot = 0; slot < pool; slot++) i32[candidates + slot] = slot;
        rescore(pool);
        return hits(query.queryScale);
      }
      const { columns } = query;
      let margin = errorMargin;
      if (usesColumns(columns.count, bitBytes) && pool > columnShortlistFor(topK)) {
        shortlist = Math.max(topK, columnShortlistFor(topK));
        scanColumns(columns);
        // Both sides' rounding, ±half a step per dimension: a spread of step/√12 each (unit vectors).
        margin = (marginFactor * Math.hypot(largestNibbleScale, columns.unit)) / Math.sqrt(12);
      } else {
        u8.set(query.tables, at.tables);
        kernels.scan(at.blocks, Math.ceil(ids.length / 16), at.tables, at.meta, at.scores, query.k1, query.k2, query.k3);
      }
      const estimates = at.scores >> 2;
      // A quarter more than the shortlist on average; fewer than it only by bad luck, then retried.
      let kept = 0;
      for (let spare = 1.25; kept < shortlist; spare *= 2) kept = collect(sampleCut(f32.subarray(estimates), within ?? pool, shortlist, spare), pool, within);
      kept = keepBest(f32.subarray(estimates), i32.subarray(candidates), kept, shortlist);
      let lowest = Infinity;
      for (let i = 0; i < kept; i++) lowest = Math.min(lowest, f32[estimates + i32[candidates + i]!]!);
      rescore(kept);
      // A vector better than the k-th best so far has an estimate within the scan's error of it:
      // where that reaches below the shortlist, those are rescored too. Crowded neighbourhoods
      // (flat score distributions) take this second pass; most queries do not.
      const floor = top.floor() / query.queryScale - margin;
      if (floor < lowest) {
        let more = 0;
        const found = collect(floor, pool, within);
        for (let i = 0; i < found; i++) {
          const slot = i32[candidates + i]!;
          if (f32[estimates + slot]! < lowest) i32[candidates + more++] = slot;
        }
        rescore(more);
      }
      return hits(query.queryScale);
    },
  };
}

export type Mirror = ReturnType<typeof createMirror>;
