import { MAX_BATCH_BYTES } from '../document/batches.ts';

/** As many items as OpenAI lets a client add at once: one event never carries more. */
export const MAX_ITEMS_PER_EVENT = 20;

/**
 * Splits items into consecutive batches of at most 20 whose JSON stays under the byte budget
 * (events stay well under 512 KB): a chat may append a long request's messages in one turn.
 */
export function batchItems<T>(items: readonly T[], maxBytes = MAX_BATCH_BYTES): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const bytes = Buffer.byteLength(JSON.stringify(item));
    if (current.length > 0 && (size + bytes > maxBytes || current.length === MAX_ITEMS_PER_EVENT)) {
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
