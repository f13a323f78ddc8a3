import { createHashingEmbedder } from '../src/adapters/local/hashing-embedder.ts';
import { type CodeShape, encoderFor, recordFields } from '../src/adapters/sqlite/vector-codes.ts';
import { defaultAnalyzer } from './analyzer.ts';
import { log, round } from './util.ts';
import { exactTop, workload } from './vector-index.bench.ts';

const QUERIES = 100;
const TOP_K = 100;
/** What the index rescores today after its full scan (vector-mirror.ts: max(1,000, 10 · topK)). */
const SHORTLIST = 1000;
/** Bytes of each 64-byte sign code a first pass would read: a quarter, a half. */
const PREFIXES = [16, 32];
const SURVIVORS = [2000, 4000, 8000];

/**
 * Would a first pass over part of each sign code find the vectors worth a full estimate? The
 * index's scan reads all 512 sign bits of every vector (the exhaustive part of a search, 8 ms at
 * 1M); reading a prefix first and only the best `survivors` in full would be sub-linear in bytes.
 * Measured here on the vectors the service has (the hashing embedder, 100k SciFact windows, the
 * vector_index workload): the share of exact search's top 100 that reaches the 1,000-vector
 * shortlist with the full scan, and with a prefix pass first.
 */
export async function vectorPrefilterBench() {
  const embedder = createHashingEmbedder({ analyzer: await defaultAnalyzer() });
  const { windows, claims, source } = workload();
  log(`vector_prefilter: embedding ${windows.length} windows of ${source}`);
  const vectors = await embedder.embed(windows);
  const queries = await embedder.embed(claims.slice(0, QUERIES));
  const encoder = encoderFor(embedder.dimensions);
  const records = vectors.map((v) => encoder.encode(v));
  const found: Record<string, number> = {};
  const full = new Float64Array(records.length);
  const prefix = PREFIXES.map(() => new Float64Array(records.length));
  for (const q of queries) {
    const exact = exactTop(vectors, q, TOP_K);
    const code = encoder.encodeQuery(q);
    estimate(records, code, encoder.shape, full, prefix);
    const tally = (key: string, shortlist: number[]) => {
      const kept = new Set(shortlist);
      found[key] = (found[key] ?? 0) + exact.filter((i) => kept.has(i)).length;
    };
    tally('full_scan', best(full, SHORTLIST));
    PREFIXES.forEach((bytes, p) => {
      for (const survivors of SURVIVORS) {
        const passed = best(prefix[p]!, survivors);
        tally(`first_${bytes * 8}_bits_then_${survivors}`, passed.sort((a, b) => full[b]! - full[a]!).slice(0, SHORTLIST));
      }
    });
  }
  const recall = Object.fromEntries(Object.entries(found).map(([key, n]) => [key, round(n / (queries.length * TOP_K), 3)]));
  // A comparison, like pdf_engines and peers: it has no goal of its own to pass.
  return { vectors: vectors.length, dimensions: embedder.dimensions, text: source, queries: queries.length, shortlist: SHORTLIST, recall_of_exact_top_100_in_shortlist: recall, pass: true };
}

type Query = ReturnType<ReturnType<typeof encoderFor>['encodeQuery']>;

/** The scan's estimate for every record, in full and from each prefix of its sign bytes. */
function estimate(records: Uint8Array[], q: Query, shape: CodeShape, full: Float64Array, prefix: Float64Array[]) {
  const { tables, k1, k2, k3 } = q;
  // Σ of the query's levels over a prefix is what each 16-entry table holds for nibble 15.
  const levelsUpTo = (bytes: number) => {
    let sum = 0;
    for (let g = 0; g < 2 * bytes; g++) sum += tables[g * 16 + 15]!;
    return sum;
  };
  const step = k1 / 2;
  const lo = k2 / 2;
  const prefixK3 = PREFIXES.map((bytes) => -(bytes * 8 * lo + step * levelsUpTo(bytes)));
  for (let r = 0; r < records.length; r++) {
    const record = records[r]!;
    const { popcount, inverseL1 } = recordFields(record, shape);
    let sum = 0;
    let ones = 0;
    for (let j = 0; j < shape.bitBytes; j++) {
      const byte = record[shape.codeBytes + j]!;
      sum += tables[2 * j * 16 + (byte & 15)]! + tables[(2 * j + 1) * 16 + (byte >> 4)]!;
      ones += bitCount(byte);
      const p = PREFIXES.indexOf(j + 1);
      if (p >= 0) prefix[p]![r] = (k1 * sum + k2 * ones + prefixK3[p]!) * inverseL1;
    }
    full[r] = (k1 * sum + k2 * popcount + k3) * inverseL1;
  }
}

function bitCount(byte: number): number {
  let n = 0;
  for (let b = byte; b; b &= b - 1) n++;
  return n;
}

function best(scores: Float64Array, n: number): number[] {
  return Array.from(scores.keys()).sort((a, b) => scores[b]! - scores[a]!).slice(0, n);
}
