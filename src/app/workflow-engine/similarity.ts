import type { Analyzer } from '../../ports/analyzer.ts';
import type { Embedder } from '../../ports/models.ts';

/**
 * How close each text is to the query, 0–1, with no chat model: an offline question classifier's
 * measure. Term overlap weighted as BM25 weights terms (a term rare among these texts says more
 * than one all of them share), as the share of the query's weight a text covers; blended half and
 * half with the offline embedder's cosine when there is one, whose character trigrams catch the
 * inflections and misspellings that exact terms miss.
 */
export async function textSimilarity(deps: { analyzer: Analyzer; embedder?: Embedder }, query: string, texts: readonly string[]): Promise<number[]> {
  const overlap = termOverlap(deps.analyzer, query, texts);
  if (!deps.embedder || texts.length === 0) return overlap;
  const [queryVector, ...vectors] = await deps.embedder.embed([query, ...texts]);
  return overlap.map((score, i) => (score + Math.max(0, cosine(queryVector!, vectors[i]!))) / 2);
}

function termOverlap(analyzer: Analyzer, query: string, texts: readonly string[]): number[] {
  const queryTerms = new Set(analyzer.terms(query));
  const textTerms = texts.map((text) => new Set(analyzer.terms(text)));
  const n = texts.length;
  // BM25's IDF, kept positive; over these texts only, as a classifier has no corpus.
  const idf = (term: string) => {
    const df = textTerms.filter((terms) => terms.has(term)).length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  const weights = new Map([...queryTerms].map((term) => [term, idf(term)]));
  const total = [...weights.values()].reduce((sum, w) => sum + w, 0);
  if (total === 0) return texts.map(() => 0);
  return textTerms.map((terms) => [...weights].reduce((sum, [term, w]) => sum + (terms.has(term) ? w : 0), 0) / total);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
