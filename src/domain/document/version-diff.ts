import { diffArrays } from 'diff';

/** A chunk as a diff shows it: enough to read it and find it on its page. */
export type DiffChunk = { chunk_id: string; page: number; text: string };

export type VersionDiff = {
  added: DiffChunk[];
  removed: DiffChunk[];
  /** A chunk of the older version rewritten in the newer one, in the same place. */
  changed: { before: DiffChunk; after: DiffChunk }[];
  unchanged: number;
};

/**
 * Below this share of words in common, a removed and an added chunk in the same place are two
 * different passages rather than one edited: a rewritten sentence or a corrected figure keeps
 * most of its words, a new paragraph keeps few.
 */
const SAME_PASSAGE = 0.5;

/**
 * What changed between two versions' chunks, in reading order. Chunks are aligned on their
 * normalised text (a longest common subsequence, jsdiff's Myers diff), so a passage that merely
 * moved to another page counts as unchanged only where the order allows; in each stretch the two
 * versions do not share, a removed chunk pairs with the most similar added one after the last pair
 * (order kept), and what stays unpaired is added or removed.
 */
export function diffVersions(older: readonly DiffChunk[], newer: readonly DiffChunk[]): VersionDiff {
  const diff: VersionDiff = { added: [], removed: [], changed: [], unchanged: 0 };
  const parts = diffArrays(older.map(comparable), newer.map(comparable));
  let o = 0;
  let n = 0;
  let removed: DiffChunk[] = [];
  let added: DiffChunk[] = [];
  const closeStretch = () => {
    pairStretch(removed, added, diff);
    removed = [];
    added = [];
  };
  for (const part of parts) {
    const count = part.count ?? part.value.length;
    if (part.removed) removed = removed.concat(older.slice(o, (o += count)));
    else if (part.added) added = added.concat(newer.slice(n, (n += count)));
    else {
      closeStretch();
      diff.unchanged += count;
      o += count;
      n += count;
    }
  }
  closeStretch();
  return diff;
}

function pairStretch(removed: readonly DiffChunk[], added: readonly DiffChunk[], diff: VersionDiff) {
  const paired = new Set<number>();
  let after = 0;
  for (const before of removed) {
    let best = -1;
    let bestScore = SAME_PASSAGE;
    for (let i = after; i < added.length; i++) {
      const score = similarity(before.text, added[i]!.text);
      if (score >= bestScore) [best, bestScore] = [i, score];
    }
    if (best < 0) {
      diff.removed.push(before);
      continue;
    }
    diff.changed.push({ before, after: added[best]! });
    paired.add(best);
    after = best + 1;
  }
  added.forEach((chunk, i) => paired.has(i) || diff.added.push(chunk));
}

/** Whitespace and Unicode forms do not make a change: a re-export of the same text is the same text. */
const comparable = (chunk: DiffChunk) => chunk.text.normalize('NFKC').replace(/\s+/g, ' ').trim();

/** Words, and each Chinese or Japanese character on its own: those scripts leave no spaces between words. */
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}])+/gu;
const words = (text: string) => new Set(text.normalize('NFKC').toLowerCase().match(WORD) ?? []);

/** Dice's coefficient over the two texts' word sets. */
function similarity(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size + wb.size === 0) return 1;
  let common = 0;
  for (const w of wa) if (wb.has(w)) common++;
  return (2 * common) / (wa.size + wb.size);
}
