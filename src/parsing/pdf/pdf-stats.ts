/** Small statistics the layout heuristics share. */

export function median(values: readonly number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The value carrying the most weight, e.g. the font size most characters are set in. */
export function weightedMode<T>(entries: Iterable<readonly [T, number]>): T | undefined {
  const totals = new Map<T, number>();
  for (const [value, weight] of entries) totals.set(value, (totals.get(value) ?? 0) + weight);
  let best: T | undefined;
  let bestWeight = -Infinity;
  for (const [value, weight] of totals) {
    if (weight > bestWeight) {
      best = value;
      bestWeight = weight;
    }
  }
  return best;
}
