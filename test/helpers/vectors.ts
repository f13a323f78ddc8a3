import { seededRandom } from '../../bench/util.ts';

/** A seeded source of uniform numbers, standard normal numbers (Box–Muller) and random vectors. */
export function seededVectors(seed: number) {
  const random = seededRandom(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const randomVector = (dims: number) => Float32Array.from({ length: dims }, gaussian);
  return { random, gaussian, randomVector };
}

/** Exact cosine similarity, the reference the approximate index is checked against. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}
