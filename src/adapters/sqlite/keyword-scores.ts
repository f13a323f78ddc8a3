import type { TopK } from './keyword-top-k.ts';
import { instantiateKernels } from './vector-kernels.ts';
import { sampleCut } from './vector-select.ts';

const PAGE = 65536;

/**
 * Where a keyword search adds up its scores: one slot per chunk, zero between searches. It
 * lives in WebAssembly memory, shared by every namespace of the process (searches do not
 * overlap: each runs to its end synchronously), so that the vector index's SIMD `collect`
 * kernel can find the few slots worth a place in the top k. Offering every slot to the heap in
 * JavaScript took 1.07 ms at 1M chunks, as long as adding up the postings.
 */
export function createScoreScratch() {
  const memory = new WebAssembly.Memory({ initial: 1 });
  const kernels = instantiateKernels({ bitBytes: 0, codeBytes: 16 }, memory);
  let slots = 0;
  let scores = new Float32Array(memory.buffer);
  let candidates = new Int32Array(memory.buffer);

  const reserve = (count: number) => {
    if (count <= slots) return;
    const next = Math.max(count, slots * 2, 1024);
    const pages = Math.ceil((next * 8) / PAGE) - memory.buffer.byteLength / PAGE;
    if (pages > 0) memory.grow(pages);
    // Nothing to copy: scores are zero between searches, candidates are rewritten by each.
    scores = new Float32Array(memory.buffer, 0, next);
    candidates = new Int32Array(memory.buffer, next * 4, next);
    slots = next;
  };

  return {
    /** A zeroed score per slot, for `count` slots. */
    scores(count: number): Float32Array {
      reserve(count);
      return scores;
    },
    /**
     * Offers `top` the slots among the first `count` whose score is positive and `accepted`, as
     * if each were offered in slot order, then zeroes the scores. A sampled cut-off lets the
     * kernel pass over the slots that cannot make the top k; if fewer than k accepted ones reach
     * it, every slot is offered.
     */
    offerBest(count: number, top: TopK, accepted: (slot: number) => boolean) {
      const cut = sampleCut(scores, count, top.capacity, 2);
      if (cut > 0) {
        const found = kernels.collect(0, count, cut, scores.length * 4);
        for (let i = 0; i < found; i++) {
          const slot = candidates[i]!;
          if (accepted(slot)) top.offer(scores[slot]!, slot);
        }
      }
      if (!(cut > 0) || top.threshold === -Infinity) {
        top.clear();
        let threshold = 0;
        // Most slots are zero or below the k-th best so far: one comparison each.
        for (let slot = 0; slot < count; slot++) {
          const score = scores[slot]!;
          if (score > threshold && accepted(slot)) {
            top.offer(score, slot);
            threshold = Math.max(0, top.threshold);
          }
        }
      }
      scores.fill(0, 0, count);
    },
  };
}

/** The process's scratch (see createScoreScratch). */
export const sharedScores = createScoreScratch();
