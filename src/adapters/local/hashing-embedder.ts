import type { Embedder, ModelInfo } from '../../ports/models.ts';

export const HASHING_EMBEDDER_ID = 'kbqa-hash-embed-384';

/**
 * Feature hashing of words and character trigrams into a fixed number of signed buckets,
 * sublinear term frequency, L2-normalised. Needs no weights, so it runs anywhere with no download;
 * it captures lexical overlap (including partial word overlap), not meaning.
 */
export function createHashingEmbedder(dimensions = 384, created = 1_767_225_600): Embedder {
  const model: ModelInfo = { id: HASHING_EMBEDDER_ID, kind: 'embedding', ownedBy: 'kbqa', created };
  return {
    model,
    dimensions,
    async embed(texts) {
      return texts.map((text) => embedOne(text, dimensions));
    },
  };
}

function embedOne(text: string, dimensions: number): Float32Array {
  const counts = new Map<string, number>();
  const add = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    add(`w:${word}`);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`);
  }
  const vector = new Float32Array(dimensions);
  for (const [feature, count] of counts) {
    const h = fnv1a(feature);
    const weight = (1 + Math.log(count)) * (feature.startsWith('w:') ? 2 : 1);
    vector[h % dimensions]! += h & 0x8000_0000 ? -weight : weight;
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
