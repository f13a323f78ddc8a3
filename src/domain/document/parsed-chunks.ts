import type { z } from 'zod';
import type { ChunkRecord, DocumentChunksExtracted, DocumentParsed } from '../../../schemas/events/document.ts';
import type { DomainEvent } from '../shared/decider.ts';

type Chunk = z.infer<typeof ChunkRecord>;

/** The chunks one parse attempt extracted, in order, from a document's stream (a retried parse leaves earlier attempts' batches behind). */
export function chunksOfAttempt(events: readonly DomainEvent[], attempt: number): Chunk[] {
  return events
    .filter((e) => e.type === 'DocumentChunksExtracted' && (e.data as { attempt: number }).attempt === attempt)
    .flatMap((e) => (e.data as z.infer<typeof DocumentChunksExtracted>).chunks);
}

/** The chunks of a document's latest completed parse. */
export function parsedChunks(events: readonly DomainEvent[]): Chunk[] {
  const parsed = [...events].reverse().find((e) => e.type === 'DocumentParsed');
  return parsed ? chunksOfAttempt(events, (parsed.data as z.infer<typeof DocumentParsed>).attempt) : [];
}
