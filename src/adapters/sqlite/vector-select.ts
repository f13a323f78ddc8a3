/**
 * The k best of a stream of (score, slot) pairs: a min-heap of the best so far, so most of a
 * long stream costs one comparison against the weakest kept score.
 */
export function createTopK(capacity: number) {
  let scores = new Float32Array(capacity);
  let slots = new Int32Array(capacity);
  let limit = 0;
  let size = 0;

  const siftDown = (from: number) => {
    const score = scores[from]!;
    const slot = slots[from]!;
    let i = from;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && scores[child + 1]! < scores[child]!) child++;
      if (scores[child]! >= score) break;
      scores[i] = scores[child]!;
      slots[i] = slots[child]!;
      i = child;
    }
    scores[i] = score;
    slots[i] = slot;
  };

  return {
    /** Starts a new selection of the `k` best. */
    reset(k: number) {
      if (k > scores.length) {
        scores = new Float32Array(k);
        slots = new Int32Array(k);
      }
      limit = k;
      size = 0;
    },
    push(score: number, slot: number) {
      if (size < limit) {
        let i = size++;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if (scores[parent]! <= score) break;
          scores[i] = scores[parent]!;
          slots[i] = slots[parent]!;
          i = parent;
        }
        scores[i] = score;
        slots[i] = slot;
      } else if (limit > 0 && score > scores[0]!) {
        scores[0] = score;
        slots[0] = slot;
        siftDown(0);
      }
    },
    /** The weakest kept score once `k` are kept (what a newcomer must beat), else −∞. */
    floor: () => (size === limit && limit > 0 ? scores[0]! : -Infinity),
    /** The kept slots, best first, with their scores; empties the selection. */
    drain(): { slot: number; score: number }[] {
      const kept = Array.from({ length: size }, (_, i) => ({ slot: slots[i]!, score: scores[i]! }));
      size = 0;
      return kept.sort((a, b) => b.score - a.score || a.slot - b.slot);
    },
  };
}

const SAMPLE = 1024;
const sample = new Float32Array(SAMPLE);

/**
 * A cut-off that about `k · spare` of the slots (all of `0..slots-1`, or those listed) reach,
 * estimated from a strided sample of their scores: a shortlist without sorting them all.
 * `scores` here and below is a view whose index 0 holds slot 0's score.
 */
export function sampleCut(scores: Float32Array, slots: number | readonly number[], k: number, spare: number): number {
  const count = typeof slots === 'number' ? slots : slots.length;
  const step = Math.max(1, Math.floor(count / SAMPLE));
  let sampled = 0;
  for (let i = 0; i < count && sampled < SAMPLE; i += step) {
    sample[sampled++] = scores[typeof slots === 'number' ? i : slots[i]!]!;
  }
  const rank = Math.ceil((k / count) * sampled * spare) + 4;
  if (rank >= sampled) return -Infinity;
  return rank > 64 ? sample.subarray(0, sampled).sort()[sampled - rank]! : rankedScore(sampled, rank);
}

const best = new Float32Array(64);

/** The `rank`-th highest of the first `count` samples, by insertion into the best `rank` so far. */
function rankedScore(count: number, rank: number): number {
  best.fill(-Infinity, 0, rank);
  for (let i = 0; i < count; i++) {
    const score = sample[i]!;
    if (score <= best[0]!) continue;
    let j = 0;
    while (j + 1 < rank && best[j + 1]! < score) {
      best[j] = best[j + 1]!;
      j++;
    }
    best[j] = score;
  }
  return best[0]!;
}

/** The listed slots whose score reaches `cut`, written to `into` from its start; returns how many. */
export function collectListed(scores: Float32Array, slots: readonly number[], cut: number, into: Int32Array): number {
  let kept = 0;
  for (const slot of slots) if (scores[slot]! >= cut) into[kept++] = slot;
  return kept;
}

const BINS = 256;
const histogram = new Int32Array(BINS);

/**
 * Narrows the first `count` slots listed in `into` to about the `k` with the highest scores (all
 * of the bins above a cut-off, so a few more), in place; returns how many are left.
 */
export function keepBest(scores: Float32Array, into: Int32Array, count: number, k: number): number {
  if (count <= k) return count;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < count; i++) {
    const score = scores[into[i]!]!;
    if (score < lo) lo = score;
    if (score > hi) hi = score;
  }
  if (!(hi > lo)) return count;
  const perBin = (BINS - 1) / (hi - lo);
  histogram.fill(0);
  for (let i = 0; i < count; i++) histogram[((scores[into[i]!]! - lo) * perBin) | 0]!++;
  let cut = BINS - 1;
  for (let seen = histogram[cut]!; seen < k; ) seen += histogram[--cut]!;
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const slot = into[i]!;
    if ((((scores[slot]! - lo) * perBin) | 0) >= cut) into[kept++] = slot;
  }
  return kept;
}
