import { MAX_BATCH_BYTES } from '../document/batches.ts';
import { batchBySize, jsonBytes } from '../shared/batch-by-size.ts';

/** As many items as OpenAI lets a client add at once: one event never carries more. */
export const MAX_ITEMS_PER_EVENT = 20;

/**
 * Splits items into consecutive batches of at most 20 whose JSON stays under the byte budget
 * (events stay well under 512 KB): a chat may append a long request's messages in one turn.
 */
export const batchItems = <T>(items: readonly T[], maxBytes = MAX_BATCH_BYTES): T[][] => batchBySize(items, jsonBytes, maxBytes, MAX_ITEMS_PER_EVENT);
