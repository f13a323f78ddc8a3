import type { Chunk } from './chunker.ts';

/** Well under the 512 KB an event may weigh, leaving room for the envelope and JSON escaping. */
export const MAX_BATCH_BYTES = 256 * 1024;

/** Splits chunks into consecutive batches whose JSON stays under the byte budget. */
export function batchChunks(chunks: readonly Chunk[], maxBytes = MAX_BATCH_BYTES): Chunk[][] {
  const batches: Chunk[][] = [];
  let current: Chunk[] = [];
  let size = 0;
  for (const chunk of chunks) {
    const bytes = Buffer.byteLength(JSON.stringify(chunk));
    if (current.length > 0 && size + bytes > maxBytes) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(chunk);
    size += bytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
