import type { Analyzer } from '../../ports/analyzer.ts';
import { queryTerms, scanPassage } from './rerank-text.ts';

/**
 * The reranker's evidence about one passage, each in 0..1 and relative to what the query asked
 * for, so that the same value means the same thing for a two-word and a twenty-word query.
 */
export type RerankFeatures = {
  /** BM25 of the passage, divided by the most a passage could score (every term, saturated). */
  bm25: number;
  /** Weighted share of the query's terms found together in the passage's best single sentence. */
  sentence: number;
  /** Weighted share of the query's terms found in the title line (the first line, when short). */
  title: number;
  /** First-stage position as 1/log2(rank + 2): 1 for the first passage, 0.5 for the third. */
  prior: number;
};

export type FeatureOptions = {
  /** Word → rank in general English, most frequent first (the hashing embedder's list). */
  wordRanks: ReadonlyMap<string, number>;
  analyzer: Analyzer;
};

/** Enough of the passages to name their language. */
const SAMPLE_CHARS = 512;

const K1 = 1.2;
const B = 0.75;
/**
 * The candidates were retrieved for containing the query's words, so a word's document frequency
 * among them understates how rare it is. It is blended with this many imagined background passages
 * in which a word occurs as often as its general-English rank says (Zipf: ~ZIPF / (rank + ZIPF));
 * words outside the list, mostly technical terms, occur in BACKGROUND_UNLISTED of them.
 */
const BACKGROUND_PASSAGES = 50;
const ZIPF = 300;
const BACKGROUND_UNLISTED = 0.0005;

/** Features of each passage, in the order given; `passages` are in first-stage order, best first. */
export function rerankFeatures(query: string, passages: readonly string[], options: FeatureOptions): RerankFeatures[] {
  const { analyzer } = options;
  // The passages name the language better than a few query words, and query and passages must be stemmed alike.
  const language = analyzer.detectLanguage(leadingText(passages, SAMPLE_CHARS));
  const terms = queryTerms(analyzer, query, language);
  const termIndex = new Map(terms.map((t, i) => [t.stem, i]));
  const scans = passages.map((p) => scanPassage(analyzer, p, termIndex, language));
  const n = passages.length;

  const tf = scans.map((scan) => {
    const counts = new Array<number>(terms.length).fill(0);
    for (const term of scan.hitTerm) counts[term]!++;
    return counts;
  });
  const weights = terms.map((term, i) => {
    let df = 0;
    for (const counts of tf) if (counts[i]! > 0) df++;
    const rank = options.wordRanks.get(term.word);
    const background = BACKGROUND_PASSAGES * (rank === undefined ? BACKGROUND_UNLISTED : ZIPF / (rank + ZIPF));
    return Math.log(1 + (n + BACKGROUND_PASSAGES - df - background + 0.5) / (df + background + 0.5));
  });
  const total = weights.reduce((a, b) => a + b, 0);
  const averageLength = scans.reduce((a, s) => a + s.length, 0) / Math.max(1, n) || 1;

  return scans.map((scan, index) => {
    const prior = 1 / Math.log2(index + 2);
    if (total === 0) return { bm25: 0, sentence: 0, title: 0, prior };
    const counts = tf[index]!;
    const norm = K1 * (1 - B + (B * scan.length) / averageLength);
    let bm25 = 0;
    counts.forEach((f, i) => {
      if (f > 0) bm25 += (weights[i]! * f * (K1 + 1)) / (f + norm);
    });
    return {
      bm25: bm25 / (total * (K1 + 1)),
      sentence: bestSentenceCoverage(scan.hitTerm, scan.hitSentence, weights) / total,
      title: titleCoverage(scan.hitTerm, scan.hitInTitle, weights) / total,
      prior,
    };
  });
}

/** Hits arrive sentence by sentence, so one pass with a per-sentence "seen" mark suffices. */
function bestSentenceCoverage(hitTerm: readonly number[], hitSentence: readonly number[], weights: readonly number[]): number {
  const seenIn = new Array<number>(weights.length).fill(-1);
  let best = 0;
  let current = 0;
  let sentence = -1;
  for (let k = 0; k < hitTerm.length; k++) {
    if (hitSentence[k] !== sentence) {
      sentence = hitSentence[k]!;
      current = 0;
    }
    const term = hitTerm[k]!;
    if (seenIn[term] === sentence) continue;
    seenIn[term] = sentence;
    current += weights[term]!;
    if (current > best) best = current;
  }
  return best;
}

function titleCoverage(hitTerm: readonly number[], hitInTitle: readonly number[], weights: readonly number[]): number {
  const seen = new Set<number>();
  let covered = 0;
  for (let k = 0; k < hitTerm.length; k++) {
    if (!hitInTitle[k] || seen.has(hitTerm[k]!)) continue;
    seen.add(hitTerm[k]!);
    covered += weights[hitTerm[k]!]!;
  }
  return covered;
}

/** The first `chars` of the passages joined by line breaks, without joining all of them (50 passages are ~35 KB). */
export function leadingText(passages: readonly string[], chars: number): string {
  let text = '';
  for (let i = 0; i < passages.length && text.length < chars; i++) text += (i > 0 ? '\n' : '') + passages[i];
  return text.slice(0, chars);
}
