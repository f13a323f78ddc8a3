import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createHashingEmbedder, loadWordRanks } from '../src/adapters/local/hashing-embedder.ts';
import { openSqlite } from '../src/adapters/sqlite/database.ts';
import { createTopK } from '../src/adapters/sqlite/vector-select.ts';
import { createSqliteVectorIndex } from '../src/adapters/sqlite/vector-index.ts';
import { splitSentences } from '../src/domain/document/sentences.ts';
import type { VectorIndex } from '../src/ports/vector-index.ts';
import { hasSciFact, loadSciFact, ndcgAt, recallAt } from './scifact.ts';
import { latencySummary, log, round, seededRandom, withTempDir } from './util.ts';
import { defaultAnalyzer } from './analyzer.ts';

const VECTORS = 100_000;
const BATCH = 256;
const TOP_K = 100;
const LATENCY_QUERIES = 2000;
const RECALL_QUERIES = 100;
const TARGETS = { query_p50_ms: 2, query_p99_ms: 8, recall_at_100_vs_exact: 0.95, upsert_vectors_per_s: 5000, reopen_first_query_ms: 3000, rss_added_mb: 150, scifact_delta: 0.005 };

/**
 * The embedded vector index at 100,000 chunks × 512 dimensions in one namespace: hashing-embedder
 * vectors of 2–4-sentence windows of SciFact abstracts (or of generated text without
 * ../shared), queried with SciFact claims. Recall is against exact cosine search over the same
 * floats; SciFact retrieval quality (5,183 abstracts, 809 claims) against exact search too.
 */
export async function vectorIndexBench() {
  const embedder = createHashingEmbedder({ analyzer: await defaultAnalyzer() });
  const { windows, claims, source } = workload();
  log(`vector_index: embedding ${windows.length} windows of ${source}`);
  const vectors = await embedder.embed(windows);
  const queries = await embedder.embed(claims);

  return withTempDir('vector', async (dir) => {
    const path = join(dir, 'kbqa.db');
    const { upsertPerS, latency, recall } = await buildAndQuery(path, vectors, queries);
    const { reopenMs, rssAddedMb, heapAddedMb, externalAddedMb } = reopenInFreshProcess(path, queries[1]!);
    log(`vector_index: reopened and answered in ${Math.round(reopenMs)} ms, ${round(rssAddedMb, 1)} MB resident added`);

    const scifact = await sciFactAgainstExact(dir);
    const wide = await otherWidth(dir, windows.slice(0, 20_000), claims.slice(0, 50), 1536);
    const tiny = await tinyWidth(dir);
    const figures = {
      vectors: vectors.length,
      dimensions: embedder.dimensions,
      text: source,
      query_p50_ms: latency.p50_ms,
      query_p99_ms: latency.p99_ms,
      query_max_ms: latency.max_ms,
      recall_at_100_vs_exact: round(recall.recall, 4),
      exact_search_p50_ms: round(recall.exactP50, 1),
      upsert_vectors_per_s: Math.round(upsertPerS),
      reopen_first_query_ms: Math.round(reopenMs),
      rss_added_mb: round(rssAddedMb, 1),
      // Of which the codes (WebAssembly memory) and the ids (JS heap); the rest is allocator slack from loading.
      rss_breakdown_mb: { wasm_and_buffers: round(externalAddedMb, 1), js_heap: round(heapAddedMb, 1) },
      scifact,
      other_widths: { 1536: wide, 3: tiny },
      targets: TARGETS,
    };
    const scifactOk = 'skipped' in scifact || (Math.abs(scifact.ndcg_at_10_delta) <= TARGETS.scifact_delta && Math.abs(scifact.recall_at_100_delta) <= TARGETS.scifact_delta);
    const pass =
      latency.p50_ms <= TARGETS.query_p50_ms &&
      latency.p99_ms <= TARGETS.query_p99_ms &&
      recall.recall >= TARGETS.recall_at_100_vs_exact &&
      upsertPerS >= TARGETS.upsert_vectors_per_s &&
      reopenMs <= TARGETS.reopen_first_query_ms &&
      rssAddedMb <= TARGETS.rss_added_mb &&
      scifactOk &&
      wide.recall_at_100_vs_exact >= TARGETS.recall_at_100_vs_exact &&
      tiny.correct;
    return { ...figures, pass };
  });
}

/** Upserts in batches, then times queries and measures recall against exact search. */
async function buildAndQuery(path: string, vectors: readonly Float32Array[], queries: readonly Float32Array[]) {
  const db = openSqlite(path);
  const index = createSqliteVectorIndex(db);
  const started = performance.now();
  for (let i = 0; i < vectors.length; i += BATCH) {
    const batch = vectors.slice(i, i + BATCH).map((values, j) => ({ id: `chunk-${i + j}`, documentId: `doc-${(i + j) >> 3}`, values }));
    await index.upsert('kb', batch);
    // Queried early, so that the rest of the upserts also keep the in-memory copy in step.
    if (i === 0) await index.query('kb', queries[0]!, TOP_K);
  }
  const upsertPerS = vectors.length / ((performance.now() - started) / 1000);
  log(`vector_index: ${vectors.length} upserted at ${Math.round(upsertPerS)}/s`);
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_QUERIES + 100; i++) {
    const t0 = performance.now();
    await index.query('kb', queries[i % queries.length]!, TOP_K);
    if (i >= 100) latencies.push(performance.now() - t0);
  }
  const latency = latencySummary(latencies);
  const recall = await recallAgainstExact(index, 'kb', vectors, queries.slice(0, RECALL_QUERIES));
  log(`vector_index: p50 ${latency.p50_ms} ms, p99 ${latency.p99_ms} ms, recall@100 ${round(recall.recall, 4)} (exact search p50 ${round(recall.exactP50, 1)} ms)`);
  db.close();
  return { upsertPerS, latency, recall };
}

/** Windows of 2–4 consecutive sentences (60–250 words), repeated with 10% of words dropped until there are enough. */
export function workload(): { windows: string[]; claims: string[]; source: string } {
  const random = seededRandom(42);
  const sf = hasSciFact() ? loadSciFact() : undefined;
  const abstracts = sf ? sf.corpus.map((d) => splitSentences(d.text)) : generatedAbstracts(random);
  const windows: string[] = [];
  for (let pass = 0; windows.length < VECTORS; pass++) {
    for (const sentences of abstracts) {
      for (let start = 0; start < sentences.length && windows.length < VECTORS; start++) {
        let text = sentences.slice(start, start + 2 + Math.floor(random() * 3)).join(' ');
        if (pass > 0) text = text.split(' ').filter(() => random() > 0.1).join(' ');
        const words = text.split(' ').length;
        if (words >= 60 && words <= 250) windows.push(text);
      }
    }
  }
  const claims = sf
    ? sf.queries.map((q) => q.text)
    : Array.from({ length: 800 }, () => {
        const words = windows[Math.floor(random() * windows.length)]!.split(' ');
        const length = 8 + Math.floor(random() * 13);
        const start = Math.floor(random() * (words.length - length));
        return words.slice(start, start + length).join(' ');
      });
  return { windows, claims, source: sf ? 'SciFact abstracts' : 'generated text (no ../shared)' };
}

/**
 * 6,000 abstracts of 6–12 sentences of 10–30 words. Each abstract has a topic, 150 rarer words
 * of its own that make up 40% of its words, the rest drawn by general word frequency: without
 * topics, neighbours are barely nearer than everything else, unlike in any real collection.
 */
function generatedAbstracts(random: () => number): string[][] {
  const words = [...loadWordRanks().keys()];
  const common = () => words[Math.floor(Math.exp(random() * Math.log(words.length))) - 1]!;
  return Array.from({ length: 6000 }, () => {
    const topic = Array.from({ length: 150 }, () => words[1000 + Math.floor(random() * (words.length - 1000))]!);
    const word = () => (random() < 0.4 ? topic[Math.floor(random() * topic.length)]! : common());
    const sentence = () => Array.from({ length: 10 + Math.floor(random() * 21) }, word).join(' ') + '.';
    return Array.from({ length: 6 + Math.floor(random() * 7) }, sentence);
  });
}

/** Exact cosine top-k over unit vectors (the hashing embedder's are). */
export function exactTop(vectors: readonly Float32Array[], q: Float32Array, k: number): number[] {
  const top = createTopK(k);
  top.reset(k);
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i]!;
    let dot = 0;
    for (let j = 0; j < q.length; j++) dot += v[j]! * q[j]!;
    top.push(dot, i);
  }
  return top.drain().map((h) => h.slot);
}

async function recallAgainstExact(index: VectorIndex, namespace: string, vectors: readonly Float32Array[], queries: readonly Float32Array[], prefix = 'chunk-') {
  let found = 0;
  const exactMs: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    const exact = new Set(exactTop(vectors, q, TOP_K).map((i) => `${prefix}${i}`));
    exactMs.push(performance.now() - t0);
    found += (await index.query(namespace, q, TOP_K)).filter((m) => exact.has(m.id)).length;
  }
  return { recall: found / (queries.length * TOP_K), exactP50: latencySummary(exactMs).p50_ms };
}

/** Each abstract one chunk (`title\n\ntext`), 809 train claims, top 100: the index against exact search. */
async function sciFactAgainstExact(dir: string) {
  if (!hasSciFact()) return { skipped: 'needs ../shared/data/bench/scifact' };
  const sf = loadSciFact();
  const embedder = createHashingEmbedder({ analyzer: await defaultAnalyzer() });
  const docs = await embedder.embed(sf.corpus.map((d) => `${d.title}\n\n${d.text}`));
  const queries = await embedder.embed(sf.queries.map((q) => q.text));
  const db = openSqlite(join(dir, 'scifact.db'));
  const index = createSqliteVectorIndex(db);
  await index.upsert('scifact', docs.map((values, i) => ({ id: sf.corpus[i]!.id, documentId: sf.corpus[i]!.id, values })));
  const sums = { exact: { ndcg: 0, recall: 0 }, index: { ndcg: 0, recall: 0 } };
  for (const [qi, q] of queries.entries()) {
    const relevant = sf.qrels.get(sf.queries[qi]!.id)!;
    const rankings = {
      exact: exactTop(docs, q, TOP_K).map((i) => sf.corpus[i]!.id),
      index: (await index.query('scifact', q, TOP_K)).map((m) => m.id),
    };
    for (const kind of ['exact', 'index'] as const) {
      sums[kind].ndcg += ndcgAt(rankings[kind], relevant);
      sums[kind].recall += recallAt(rankings[kind], relevant);
    }
  }
  db.close();
  const n = queries.length;
  const figure = (kind: 'exact' | 'index') => ({ ndcg_at_10: round(sums[kind].ndcg / n, 4), recall_at_100: round(sums[kind].recall / n, 4) });
  return {
    documents: docs.length,
    queries: n,
    exact: figure('exact'),
    index: figure('index'),
    ndcg_at_10_delta: round((sums.index.ndcg - sums.exact.ndcg) / n, 4),
    recall_at_100_delta: round((sums.index.recall - sums.exact.recall) / n, 4),
  };
}

/** Wider vectors (as from OpenAI models) are padded to a power of two and searched the same way. */
async function otherWidth(dir: string, texts: string[], claims: string[], dimensions: number) {
  const embedder = createHashingEmbedder({ analyzer: await defaultAnalyzer(), dimensions });
  const vectors = await embedder.embed(texts);
  const queries = await embedder.embed(claims);
  const db = openSqlite(join(dir, `width-${dimensions}.db`));
  const index = createSqliteVectorIndex(db);
  for (let i = 0; i < vectors.length; i += BATCH) {
    await index.upsert('kb', vectors.slice(i, i + BATCH).map((values, j) => ({ id: `chunk-${i + j}`, documentId: 'doc', values })));
  }
  const latencies: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    await index.query('kb', queries[i % queries.length]!, TOP_K);
    latencies.push(performance.now() - t0);
  }
  const { recall } = await recallAgainstExact(index, 'kb', vectors, queries);
  db.close();
  return { vectors: vectors.length, query_p50_ms: latencySummary(latencies).p50_ms, recall_at_100_vs_exact: round(recall, 4) };
}

/** Three dimensions (as in the contract tests): every vector is scored, to int8 precision. */
async function tinyWidth(dir: string) {
  const db = openSqlite(join(dir, 'width-3.db'));
  const index = createSqliteVectorIndex(db);
  const random = seededRandom(3);
  const unit = (v: Float32Array) => v.map((x) => x / Math.hypot(...v));
  const vectors = Array.from({ length: 500 }, () => unit(Float32Array.from({ length: 3 }, () => random() * 2 - 1)));
  await index.upsert('kb', vectors.map((values, i) => ({ id: `chunk-${i}`, documentId: 'doc', values })));
  const q = unit(Float32Array.from([0.3, -0.5, 0.8]));
  const cosine = (i: number) => vectors[i]!.reduce((sum, x, j) => sum + x * q[j]!, 0);
  const exact = exactTop(vectors, q, 10);
  const found = await index.query('kb', q, 10);
  db.close();
  const maxScoreError = Math.max(...found.map((m) => Math.abs(m.score - cosine(Number(m.id.slice(6))))));
  // Near ties may swap, so the n-th found must score within the error of the n-th exact.
  const ranksHold = found.every((m, n) => m.score >= cosine(exact[n]!) - 0.01);
  return { vectors: vectors.length, max_score_error: round(maxScoreError, 4), correct: found.length === 10 && maxScoreError < 0.01 && ranksHold };
}

const REOPEN = `
  const [path, database, vectorIndex, query] = process.argv.slice(1);
  const { openSqlite } = await import(database);
  const { createSqliteVectorIndex } = await import(vectorIndex);
  const settle = async () => { for (let i = 0; i < 3; i++) { gc(); await new Promise((r) => setTimeout(r, 50)); } };
  await settle();
  const before = process.memoryUsage();
  const started = performance.now();
  const db = openSqlite(path);
  const index = createSqliteVectorIndex(db);
  await index.query('kb', Float32Array.from(JSON.parse(query)), 100);
  const reopenMs = performance.now() - started;
  await settle();
  const after = process.memoryUsage();
  const added = (key) => (after[key] - before[key]) / 1024 ** 2;
  // Still in use here, so the collections above could not take the loaded copy away.
  await index.count('kb');
  console.log(JSON.stringify({ reopenMs, rssAddedMb: added('rss'), heapAddedMb: added('heapUsed'), externalAddedMb: added('external') }));
  db.close();`;

/**
 * Opening the file and answering the first query in a process of its own, as after a restart:
 * cold code, and no earlier copy of the vectors in memory to blur the resident-memory figure.
 */
type Reopened = { reopenMs: number; rssAddedMb: number; heapAddedMb: number; externalAddedMb: number };
function reopenInFreshProcess(path: string, query: Float32Array): Reopened {
  const module = (file: string) => new URL(file, import.meta.url).href;
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--expose-gc', '--input-type=module', '-e', REOPEN, path, module('../src/adapters/sqlite/database.ts'), module('../src/adapters/sqlite/vector-index.ts'), JSON.stringify([...query])],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(`reopening failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Reopened;
}
