import { createHash } from 'node:crypto';
import { underHeadings } from '../retrieval/passage-text.ts';

type Identified = { chunk_id: string; text: string; heading_path: string[] };

/** Whitespace runs are one space, the ends trimmed: a re-flowed line is the same chunk. */
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The hash of what a chunk is indexed as (its text under its headings), normalised. */
export const chunkTextHash = (chunk: Pick<Identified, 'text' | 'heading_path'>) =>
  createHash('sha256').update(normalise(underHeadings(chunk.heading_path, chunk.text))).digest('hex');

/**
 * Chunk ids by content (issue 44): the document, the hash of the chunk's indexed text, and its
 * ordinal among the document's chunks with that hash. A chunk a new version shares with the
 * previous one has the same id, whatever moved around it, so its embedding, keyword postings and
 * entities are found and reused instead of computed again; what the embedder read (headings
 * included) is what is hashed, so a reused embedding is always the embedding of this text.
 */
export function withContentIds<C extends Identified>(documentId: string, chunks: readonly C[]): C[] {
  const seen = new Map<string, number>();
  return chunks.map((chunk) => {
    const hash = chunkTextHash(chunk);
    const ordinal = seen.get(hash) ?? 0;
    seen.set(hash, ordinal + 1);
    const id = createHash('sha256').update(`${documentId}\u0000${hash}\u0000${ordinal}`).digest('hex').slice(0, 24);
    return { ...chunk, chunk_id: `chk_${id}` };
  });
}
