import { encoderFor } from './vector-codes.ts';

/**
 * Estimates of what the in-memory indexes hold, from their counts rather than from the heap
 * (which one cannot ask per object). Per chunk, each index keeps the chunk's id and its
 * document's id as strings (ids are 30 characters: a 16-byte header and one byte each, rounded
 * to 8), an 8-byte reference to each, and a Map entry from the id to its slot (about 40 bytes
 * with the table's spare room). The bench (bench/index-memory.bench.ts) sets these beside the
 * resident memory actually added.
 */
export const ID_STRING_BYTES = 48;
export const REFERENCE_BYTES = 8;
export const MAP_ENTRY_BYTES = 40;

/** Chunk id and document id strings, their two references and the id → slot entry. */
export const CHUNK_IDS_BYTES = 2 * (ID_STRING_BYTES + REFERENCE_BYTES) + MAP_ENTRY_BYTES;

/**
 * One vector in a mirror (vector-mirror.ts): its sign code, popcount and norm (8), int8 code
 * and scale (4), its nibble columns and their scale (4), and the candidate, score and dot slots
 * each query uses (4 each), plus its ids.
 */
export function vectorBytes(dims: number): number {
  const { codeBytes, bitBytes, nibbleBytes } = encoderFor(dims).shape;
  return bitBytes + 8 + codeBytes + 4 + (nibbleBytes ? nibbleBytes + 4 : 0) + 12 + CHUNK_IDS_BYTES;
}

/**
 * A keyword namespace (keyword-postings.ts): its typed arrays as allocated, its terms' included
 * (its StringIds), and its chunk and document ids, each a string, a reference in a list and
 * a Map entry to its ordinal.
 */
export function postingsBytes({ arrays, ids }: { arrays: readonly ArrayBufferView[]; ids: number }): number {
  let bytes = ids * (ID_STRING_BYTES + REFERENCE_BYTES + MAP_ENTRY_BYTES);
  for (const array of arrays) bytes += array.byteLength;
  return bytes;
}
