import type { z } from 'zod';
import type { ChunkRecord } from '../../../schemas/events/document.ts';
import type { AnyDomainEvent } from '../../../schemas/events/index.ts';

type Chunk = z.infer<typeof ChunkRecord>;

/** The chunks one parse attempt extracted, in order, from a document's stream (a retried parse leaves earlier attempts' batches behind). */
export function chunksOfAttempt(events: readonly AnyDomainEvent[], attempt: number): Chunk[] {
  return events.flatMap((e) => (e.type === 'DocumentChunksExtracted' && e.data.attempt === attempt ? e.data.chunks : []));
}

/** The chunks of a document's latest completed parse. */
export function parsedChunks(events: readonly AnyDomainEvent[]): Chunk[] {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === 'DocumentParsed') return chunksOfAttempt(events, event.data.attempt);
  }
  return [];
}
