import { batchBySize, jsonBytes } from '../shared/batch-by-size.ts';
import type { Chunk } from './chunker.ts';

/** Well under the 512 KB an event may weigh, leaving room for the envelope and JSON escaping. */
export const MAX_BATCH_BYTES = 256 * 1024;

/** Splits chunks into consecutive batches whose JSON stays under the byte budget. */
export const batchChunks = (chunks: readonly Chunk[], maxBytes = MAX_BATCH_BYTES): Chunk[][] => batchBySize(chunks, jsonBytes, maxBytes);
