/**
 * Consecutive runs of items, in order, whose sizes add up to at most `maxBytes` (an item larger
 * than that travels alone) and that hold at most `maxCount` items.
 */
export function batchBySize<T>(items: readonly T[], sizeOf: (item: T) => number, maxBytes: number, maxCount = Number.POSITIVE_INFINITY): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const bytes = sizeOf(item);
    if (current.length > 0 && (size + bytes > maxBytes || current.length >= maxCount)) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += bytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** An item's size as an event or message carries it: its JSON's bytes. */
export const jsonBytes = (item: unknown): number => Buffer.byteLength(JSON.stringify(item));
