import type { Chunk } from '../../src/domain/document/chunker.ts';

/** A chunk of one page, its text its only content: what decider tests append and fold. */
export const chunk = (index: number, text = `Chunk ${index}.`): Chunk => ({
  chunk_id: `c${index}`,
  index,
  page: 1,
  text,
  heading_path: [],
  char_start: 0,
  char_end: text.length,
  token_count: 3,
});
