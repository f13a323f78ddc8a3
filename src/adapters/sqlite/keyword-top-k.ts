/**
 * The k best (score, ordinal) pairs of a stream, kept in a min-heap so the weakest is replaced in
 * O(log k) and most candidates are rejected by one comparison with it. Ties go to the lower
 * ordinal (the chunk indexed first), so results do not depend on scan order.
 */
export class TopK {
  readonly #scores: Float64Array;
  readonly #ordinals: Int32Array;
  #size = 0;

  constructor(readonly capacity: number) {
    this.#scores = new Float64Array(capacity);
    this.#ordinals = new Int32Array(capacity);
  }

  /** The score a candidate must beat to get in (−∞ until the heap is full). */
  get threshold(): number {
    return this.#size < this.capacity ? -Infinity : this.#scores[0]!;
  }

  offer(score: number, ordinal: number): void {
    if (this.#size < this.capacity) {
      this.#siftUp(this.#size++, score, ordinal);
    } else if (this.#worse(this.#scores[0]!, this.#ordinals[0]!, score, ordinal)) {
      this.#siftDown(score, ordinal);
    }
  }

  /** Empties the heap for another stream. */
  clear(): void {
    this.#size = 0;
  }

  /** Best first. */
  drain(): { ordinal: number; score: number }[] {
    const out = Array.from({ length: this.#size }, (_, i) => ({ ordinal: this.#ordinals[i]!, score: this.#scores[i]! }));
    this.#size = 0;
    return out.sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
  }

  /** Whether (s1, o1) ranks below (s2, o2). */
  #worse(s1: number, o1: number, s2: number, o2: number): boolean {
    return s1 < s2 || (s1 === s2 && o1 > o2);
  }

  #siftUp(i: number, score: number, ordinal: number) {
    const scores = this.#scores;
    const ordinals = this.#ordinals;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#worse(score, ordinal, scores[parent]!, ordinals[parent]!)) break;
      scores[i] = scores[parent]!;
      ordinals[i] = ordinals[parent]!;
      i = parent;
    }
    scores[i] = score;
    ordinals[i] = ordinal;
  }

  #siftDown(score: number, ordinal: number) {
    const scores = this.#scores;
    const ordinals = this.#ordinals;
    const n = this.#size;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.#worse(scores[child + 1]!, ordinals[child + 1]!, scores[child]!, ordinals[child]!)) child++;
      if (!this.#worse(scores[child]!, ordinals[child]!, score, ordinal)) break;
      scores[i] = scores[child]!;
      ordinals[i] = ordinals[child]!;
      i = child;
    }
    scores[i] = score;
    ordinals[i] = ordinal;
  }
}
