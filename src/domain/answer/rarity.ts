/** How telling a word is, 0..1: 1 for words rarer than the frequency list reaches, and for numbers. */
export type Rarity = (word: string) => number;

/**
 * Rarity from a word's rank in general English (most frequent first), on a log scale as in the
 * hashing embedder: an IDF that needs no corpus. A plural missing from the list borrows its
 * singular's rank.
 */
export function rarityFromRanks(ranks: ReadonlyMap<string, number>): Rarity {
  const max = Math.log(2 + ranks.size);
  return (word) => {
    const rank = ranks.get(word) ?? (word.endsWith('s') ? ranks.get(word.slice(0, -1)) : undefined);
    return rank === undefined ? 1 : Math.log(2 + rank) / max;
  };
}
