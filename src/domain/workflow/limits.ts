import { jsonBytes } from '../shared/batch-by-size.ts';

/**
 * What a run may record (issue 42, item 13). A node's outputs go into its NodeRunSucceeded event,
 * its error into NodeRunFailed and RunFailed: each event stays under the log's 512 KB (DESIGN; the
 * SQLite store enforces nothing itself, EventStoreDB refuses an append over its MaxAppendSize, 1 MB
 * by default, and Kafka a message over its broker's limit, 1 MB by default).
 */
export const MAX_NODE_OUTPUT_BYTES = 256 * 1024;
/** A node's error message is cut to this (a thrown 20 MB string was recorded whole, twice). */
export const MAX_ERROR_MESSAGE_BYTES = 4 * 1024;
/** Everything one run records (node outputs and their rendered inputs), summed: the run's stream, its read model, its response. */
export const MAX_RUN_RECORDED_BYTES = 8 * 1024 * 1024;
/** The inputs a node's trace records (its rendered templates), all fields together; beyond it they are recorded cut. */
export const MAX_TRACE_INPUTS_BYTES = 64 * 1024;

/** The size of a value as JSON, in UTF-8 bytes; Infinity when it is too large to serialize at all. */
export function recordedBytes(value: unknown): number {
  try {
    return jsonBytes(value ?? null);
  } catch {
    return Number.POSITIVE_INFINITY; // RangeError: a string longer than V8 allows.
  }
}

/** The failure of a node whose outputs exceed MAX_NODE_OUTPUT_BYTES, naming the limit. */
export const outputTooLarge = (what: string, bytes: number) => ({
  code: 'output_too_large',
  message: `${what} ${Number.isFinite(bytes) ? `${bytes} bytes` : 'more than can be serialized'} as JSON; a node's outputs may be at most ${MAX_NODE_OUTPUT_BYTES} bytes`,
});

/** Text cut to at most `maxBytes` bytes of UTF-8 (a note of the cut included), whole characters only. */
export function cutText(text: string, maxBytes = MAX_ERROR_MESSAGE_BYTES): string {
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return text;
  const note = ` … [cut: ${Buffer.byteLength(text)} bytes, at most ${maxBytes} are kept]`;
  let kept = text.slice(0, Math.max(0, maxBytes - Buffer.byteLength(note)));
  while (Buffer.byteLength(kept) + Buffer.byteLength(note) > maxBytes) kept = kept.slice(0, Math.floor(kept.length * 0.9));
  // Not half a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  return kept + note;
}

/** Rendered inputs for a trace: as they are within MAX_TRACE_INPUTS_BYTES, else each field cut to its share. */
export function traceInputs(inputs: Record<string, string>): Record<string, string> {
  const fields = Object.keys(inputs).length;
  if (fields === 0 || recordedBytes(inputs) <= MAX_TRACE_INPUTS_BYTES) return inputs;
  const share = Math.floor(MAX_TRACE_INPUTS_BYTES / fields) - 64;
  return Object.fromEntries(Object.entries(inputs).map(([field, text]) => [field, cutText(text, share)]));
}
