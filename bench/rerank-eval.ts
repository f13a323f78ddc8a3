// The offline reranker's quality on SciFact, behind a first stage built like the service's.
//   node --import tsx bench/rerank-eval.ts          figures for the shipped weights
//   node --import tsx bench/rerank-eval.ts --fit    also refit the weights on the odd query ids
import Database from 'better-sqlite3';
import { createHashingEmbedder } from '../src/adapters/local/hashing-embedder.ts';
import { createOfflineReranker, DEFAULT_RERANK_WEIGHTS, type RerankWeights } from '../src/adapters/local/offline-reranker.ts';
import { rerankFeatures, type RerankFeatures } from '../src/adapters/local/rerank-features.ts';
import { loadWordRanks } from '../src/adapters/local/hashing-embedder.ts';
import { fitLogistic, fitPairwise, sigmoid } from './rerank-fit.ts';
import { hasSciFact, loadSciFact, ndcgAt, recallAt, type SciFact } from './scifact.ts';
import { log, round } from './util.ts';
import type { Analyzer } from '../src/ports/analyzer.ts';
import { defaultAnalyzer } from './analyzer.ts';

const RECALL_DEPTH = 100;
const RRF_K = 60;
const FEATURES = ['bm25', 'sentence', 'title', 'prior'] as const satisfies readonly (keyof RerankFeatures)[];

type Lists = { bm25: number[]; vector: number[]; hybrid: number[] };

/**
 * The service's hybrid recall: SQLite FTS5 BM25 (porter tokenizer, the query's content words OR-ed)
 * and exact cosine search over the hashing embedder, each top 100, fused by reciprocal rank (k=60).
 */
export async function firstStage(sf: SciFact): Promise<Lists[]> {
  const texts = sf.corpus.map((d) => `${d.title}\n\n${d.text}`);
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE f USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2')`);
  const insert = db.prepare('INSERT INTO f (rowid, text) VALUES (?, ?)');
  db.transaction(() => texts.forEach((t, i) => insert.run(i + 1, t)))();
  const search = db.prepare<[string, number], { r: number }>('SELECT rowid AS r FROM f WHERE f MATCH ? ORDER BY rank LIMIT ?');

  const embedder = createHashingEmbedder({ analyzer: await defaultAnalyzer() });
  const docs = await embedder.embed(texts);
  const queries = await embedder.embed(sf.queries.map((q) => q.text));
  const lists = sf.queries.map((q, qi) => {
    const expression = matchExpression(q.text);
    const bm25 = expression ? search.all(expression, RECALL_DEPTH).map((row) => row.r - 1) : [];
    const qv = queries[qi]!;
    const vector = docs
      .map((d, i) => {
        let dot = 0;
        for (let j = 0; j < d.length; j++) dot += d[j]! * qv[j]!;
        return { i, dot };
      })
      .sort((a, b) => b.dot - a.dot)
      .slice(0, RECALL_DEPTH)
      .map((s) => s.i);
    const fused = new Map<number, number>();
    for (const list of [bm25, vector]) list.forEach((d, rank) => fused.set(d, (fused.get(d) ?? 0) + 1 / (RRF_K + rank + 1)));
    const hybrid = [...fused].sort((a, b) => b[1] - a[1]).map(([d]) => d);
    return { bm25, vector, hybrid };
  });
  db.close();
  return lists;
}

const STOP_WORDS = new Set('a an and are as at be but by for from has have in into is it its of on or that the their there these this those to was were which with will not no can may than then'.split(' '));
function matchExpression(text: string): string | null {
  const words = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP_WORDS.has(w)))];
  return words.length === 0 ? null : words.map((w) => `"${w}"`).join(' OR ');
}

/** Tuning looks only at odd query ids; the even ones are the held-out half. */
const isOdd = (id: string) => Number(id) % 2 === 1;

function ndcgByHalf(sf: SciFact, ranked: (qi: number) => number[]) {
  const sums = { odd: 0, even: 0, nOdd: 0, nEven: 0 };
  sf.queries.forEach((q, qi) => {
    const ndcg = ndcgAt(ranked(qi).map((i) => sf.corpus[i]!.id), sf.qrels.get(q.id)!);
    if (isOdd(q.id)) (sums.odd += ndcg), sums.nOdd++;
    else (sums.even += ndcg), sums.nEven++;
  });
  return {
    odd: round(sums.odd / sums.nOdd, 4),
    even: round(sums.even / sums.nEven, 4),
    all: round((sums.odd + sums.even) / (sums.nOdd + sums.nEven), 4),
  };
}

/** The reranked head followed by the untouched tail of the hybrid list. */
async function rerankedLists(sf: SciFact, lists: Lists[], depth: number, weights: RerankWeights, wordRanks: ReadonlyMap<string, number>) {
  const reranker = createOfflineReranker({ analyzer: await defaultAnalyzer(), wordRanks, weights });
  return Promise.all(
    sf.queries.map(async (q, qi) => {
      const head = lists[qi]!.hybrid.slice(0, depth);
      const ranked = await reranker.rerank(q.text, head.map((i) => passageText(sf, i)), head.length);
      return [...ranked.map((r) => head[r.index]!), ...lists[qi]!.hybrid.slice(depth)];
    }),
  );
}

const passageText = (sf: SciFact, i: number) => `${sf.corpus[i]!.title}\n\n${sf.corpus[i]!.text}`;

type Row = { x: number[]; relevant: boolean; odd: boolean };

function featureRows(sf: SciFact, lists: Lists[], depth: number, wordRanks: ReadonlyMap<string, number>, analyzer: Analyzer): Row[][] {
  return sf.queries.map((q, qi) => {
    const head = lists[qi]!.hybrid.slice(0, depth);
    const relevant = sf.qrels.get(q.id)!;
    return rerankFeatures(q.text, head.map((i) => passageText(sf, i)), { wordRanks, analyzer }).map((f, k) => ({
      x: FEATURES.map((name) => f[name]),
      relevant: relevant.has(sf.corpus[head[k]!]!.id),
      odd: isOdd(q.id),
    }));
  });
}

/** Pairwise weights for the ranking, then one scale and a bias so the score is a probability. */
function fit(rows: Row[][]): RerankWeights {
  const train = rows.filter((r) => r[0]?.odd);
  const w = fitPairwise(train, 0.01);
  const flat = train.flat();
  const [bias, scale] = fitLogistic(
    flat.map((r) => [1, r.x.reduce((s, v, j) => s + v * w[j]!, 0)]),
    flat.map((r) => (r.relevant ? 1 : 0)),
  ) as [number, number];
  const weights = { bias: round(bias, 2) } as RerankWeights;
  FEATURES.forEach((name, j) => (weights[name] = round(scale * w[j]!, 2)));
  return weights;
}

/** Predicted probability against the observed share of relevant passages, on the held-out half. */
function calibration(rows: Row[][], weights: RerankWeights) {
  const bins = Array.from({ length: 10 }, (_, b) => ({ from: b / 10, passages: 0, predicted: 0, observed: 0 }));
  let brier = 0;
  let n = 0;
  for (const row of rows.flat().filter((r) => !r.odd)) {
    const p = sigmoid(weights.bias + FEATURES.reduce((s, name, j) => s + weights[name] * row.x[j]!, 0));
    const bin = bins[Math.min(9, Math.floor(p * 10))]!;
    bin.passages++;
    bin.predicted += p;
    bin.observed += row.relevant ? 1 : 0;
    brier += (p - (row.relevant ? 1 : 0)) ** 2;
    n++;
  }
  return {
    brier: round(brier / n, 4),
    bins: bins.filter((b) => b.passages > 0).map((b) => ({ ...b, predicted: round(b.predicted / b.passages, 3), observed: round(b.observed / b.passages, 3) })),
  };
}

export async function rerankEval(options: { fit?: boolean; depths?: number[] } = {}) {
  if (!hasSciFact()) return { skipped: 'needs ../shared/data/bench/scifact' };
  const { depths = [30, 50, 100] } = options;
  const sf = loadSciFact();
  const wordRanks = loadWordRanks();
  log('rerank-eval: first stage');
  const lists = await firstStage(sf);
  const report: Record<string, unknown> = {
    queries: sf.queries.length,
    first_stage: {
      bm25: ndcgByHalf(sf, (qi) => lists[qi]!.bm25),
      vector: ndcgByHalf(sf, (qi) => lists[qi]!.vector),
      hybrid: ndcgByHalf(sf, (qi) => lists[qi]!.hybrid),
      hybrid_recall: Object.fromEntries(
        depths.map((d) => [`at_${d}`, round(sf.queries.reduce((s, q, qi) => s + recallAt(lists[qi]!.hybrid.map((i) => sf.corpus[i]!.id), sf.qrels.get(q.id)!, d), 0) / sf.queries.length, 4)]),
      ),
    },
  };
  let weights = DEFAULT_RERANK_WEIGHTS;
  if (options.fit) {
    weights = fit(featureRows(sf, lists, 50, wordRanks, await defaultAnalyzer()));
    report.fitted_weights = weights;
  }
  report.weights = weights;
  const reranked: Record<string, unknown> = {};
  for (const depth of depths) {
    const t0 = performance.now();
    const ranked = await rerankedLists(sf, lists, depth, weights, wordRanks);
    reranked[`top_${depth}`] = { ...ndcgByHalf(sf, (qi) => ranked[qi]!), ms_per_query: round((performance.now() - t0) / sf.queries.length, 2) };
  }
  report.hybrid_plus_rerank = reranked;
  report.calibration_even_top_50 = calibration(featureRows(sf, lists, 50, wordRanks, await defaultAnalyzer()), weights);
  return report;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  rerankEval({ fit: process.argv.includes('--fit') })
    .then((report) => process.stdout.write(`${JSON.stringify(report, null, 2)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`rerank-eval failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
}
