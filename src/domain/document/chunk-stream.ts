import type { z } from 'zod';
import { type ChunkRecord, documentChunkEvents } from '../../../schemas/events/document.ts';
import type { AnyDomainEvent } from '../../../schemas/events/index.ts';
import { assertNever, type Command, type Decider, eventsOf } from '../shared/decider.ts';
import { batchChunks } from './batches.ts';

type Chunk = z.infer<typeof ChunkRecord>;

export type ChunkStreamEvent = AnyDomainEvent<'DocumentChunksExtracted'>;

export type ChunkStreamCommand = Command<'RecordChunks', { document_id: string; knowledge_base_id: string; attempt: number; chunks: Chunk[] }>;

/** What one attempt's chunk stream holds: nothing yet (0 batches), or all of the attempt's chunks. */
export type ChunkStreamState = { batchCount: number; chunkCount: number };

/** The chunk stream of one parse attempt: `document_chunks-{document id}-{attempt}`. */
export const chunkStreamKey = (documentId: string, attempt: number) => `${documentId}-${attempt}`;

/**
 * One parse attempt's chunks, in batches under the event size budget, written once. The stream is
 * the first half of a parse's all-or-nothing result; DocumentParsed on the document's stream, naming
 * the attempt, is the second, and until it is there nothing reads this stream.
 */
export const chunkStreamDecider: Decider<ChunkStreamState, ChunkStreamCommand, ChunkStreamEvent> = {
  initialState: () => ({ batchCount: 0, chunkCount: 0 }),
  streamId: (key) => `document_chunks-${key}`,
  isEvent: eventsOf(documentChunkEvents),
  decide(command, state) {
    switch (command.type) {
      case 'RecordChunks': {
        // An attempt's chunks are written by the one parser that started it: a second write is a retried append.
        if (state.batchCount > 0) return [];
        const { chunks, ...ids } = command.data;
        const batches = batchChunks(chunks);
        return batches.map((batch, i) => ({
          type: 'DocumentChunksExtracted',
          data: { ...ids, batch_index: i, batch_count: batches.length, chunks: batch },
        }));
      }
      default:
        return assertNever(command.type);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'DocumentChunksExtracted':
        return { batchCount: event.data.batch_count, chunkCount: state.chunkCount + event.data.chunks.length };
      default:
        return assertNever(event.type);
    }
  },
};
