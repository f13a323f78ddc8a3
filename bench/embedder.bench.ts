import { createHashingEmbedder } from '../src/adapters/local/hashing-embedder.ts';
import { hasSciFact, loadSciFact, ndcgAt, recallAt } from './scifact.ts';
import { log, round } from './util.ts';
import { defaultAnalyzer } from './analyzer.ts';

/**
 * The offline embedder alone on SciFact (809 train queries, 5,183 abstracts as title + text):
 * exact cosine search, so the figure is the embedder's, not an index's.
 */
export async function embedderBench() {
  if (!hasSciFact()) return { skipped: 'needs ../shared/data/bench/scifact', pass: true };
  const sf = loadSciFact();
  const embedder = createHashingEmbedder({ analyzer: await defaultAnalyzer() });
  const t0 = performance.now();
  const docs = await embedder.embed(sf.corpus.map((d) => `${d.title}\n${d.text}`));
  const embedMs = performance.now() - t0;
  log(`embedder: ${docs.length} abstracts embedded in ${Math.round(embedMs)} ms`);
  const queries = await embedder.embed(sf.queries.map((q) => q.text));
  let ndcg = 0;
  let recall = 0;
  queries.forEach((q, qi) => {
    const scored = docs.map((d, i) => {
      let dot = 0;
      for (let j = 0; j < q.length; j++) dot += d[j]! * q[j]!;
      return { i, dot };
    });
    scored.sort((a, b) => b.dot - a.dot);
    const ranked = scored.slice(0, 100).map((s) => sf.corpus[s.i]!.id);
    const relevant = sf.qrels.get(sf.queries[qi]!.id)!;
    ndcg += ndcgAt(ranked, relevant);
    recall += recallAt(ranked, relevant);
  });
  return {
    model: embedder.model.id,
    dimensions: embedder.dimensions,
    queries: sf.queries.length,
    ndcg_at_10: round(ndcg / sf.queries.length, 4),
    recall_at_100: round(recall / sf.queries.length, 4),
    abstracts_per_s: round(docs.length / (embedMs / 1000)),
    pass: true,
  };
}
