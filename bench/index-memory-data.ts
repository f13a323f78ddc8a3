import { seededRandom } from './util.ts';

/** The offline embedder's width. */
export const DIMS = 512;

export const kbName = (k: number) => `kb-${String(k).padStart(3, '0')}`;

/** Gaussian vectors: their codes cost what real embeddings' do. */
export function benchVectors(seed: number, count: number, dims: number): Float32Array[] {
  const random = seededRandom(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: count }, () => Float32Array.from({ length: dims }, gaussian));
}

/**
 * Chunk-like texts: 120 words drawn from 30,000 made-up ones with Zipf's law, so that the
 * postings have real text's shape (a few long lists, many short ones).
 */
export function benchText(seed: number) {
  const random = seededRandom(seed);
  const vocabulary = Array.from({ length: 30_000 }, (_, i) => `w${i.toString(36)}x`);
  return () => Array.from({ length: 120 }, () => vocabulary[Math.floor(Math.exp(random() * Math.log(vocabulary.length))) - 1]!).join(' ');
}
