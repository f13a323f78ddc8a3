import type { z } from 'zod';
import type { ChunkRecord } from '../../schemas/events/document.ts';
import type { EventData } from '../../schemas/events/index.ts';
import { chunkStreamDecider, chunkStreamKey } from '../domain/document/chunk-stream.ts';
import type { EventStore, RecordedEvent } from '../ports/event-store.ts';
import type { Passage } from '../ports/passage-store.ts';

type Chunk = z.infer<typeof ChunkRecord>;
type Parsed = EventData<'DocumentParsed'>;
/** What a DocumentParsed says about the chunks it commits. */
type ParseRef = Pick<Parsed, 'document_id' | 'attempt' | 'batch_count' | 'chunk_count'>;
type ChunkBatch = RecordedEvent<'DocumentChunksExtracted'>;

/** The stream that holds the chunks of a document's parse attempt. */
const chunkStreamOf = (documentId: string, attempt: number) => chunkStreamDecider.streamId(chunkStreamKey(documentId, attempt));

/** The parse a document's lifecycle committed last (a document is parsed at most once), if any. */
export function lastParse(lifecycle: readonly RecordedEvent[]): Parsed | null {
  for (let i = lifecycle.length - 1; i >= 0; i--) {
    const event = lifecycle[i]!;
    if (event.type === 'DocumentParsed') return event.data;
  }
  return null;
}

/**
 * The parse of the document's current version (the one its last DocumentIndexed indexed), if any:
 * what answers, while a newer version may be parsed or have failed (issue 44).
 */
export function currentParse(lifecycle: readonly RecordedEvent[]): Parsed | null {
  let current: number | null = null;
  for (let i = lifecycle.length - 1; i >= 0; i--) {
    const event = lifecycle[i]!;
    if (current === null && event.type === 'DocumentIndexed') current = event.data.version ?? 1;
    if (current !== null && event.type === 'DocumentParsed' && (event.data.version ?? 1) === current) return event.data;
  }
  return null;
}

/**
 * The chunk batches of the parse that `parsed` committed, in order. They are in the attempt's own
 * stream, read once; a document parsed before chunk streams existed has them in its own stream,
 * which the caller read already (`lifecycle`), so nothing more is read for it. A chunk stream that
 * does not hold what DocumentParsed says is a broken log, not something to index in part.
 */
async function readParsedBatches(store: EventStore, parsed: ParseRef, lifecycle: readonly RecordedEvent[]): Promise<ChunkBatch[]> {
  const inLifecycle = lifecycle.filter((e): e is ChunkBatch => e.type === 'DocumentChunksExtracted' && e.data.attempt === parsed.attempt);
  if (inLifecycle.length > 0 || parsed.batch_count === 0) return inLifecycle;
  const streamId = chunkStreamOf(parsed.document_id, parsed.attempt);
  const batches = (await store.readStream(streamId)).filter((e): e is ChunkBatch => e.type === 'DocumentChunksExtracted');
  const chunks = batches.reduce((n, b) => n + b.data.chunks.length, 0);
  if (batches.length !== parsed.batch_count || chunks !== parsed.chunk_count) {
    throw new Error(`${streamId} holds ${batches.length} batches of ${chunks} chunks; DocumentParsed names ${parsed.batch_count} of ${parsed.chunk_count}`);
  }
  return batches;
}

/** The chunks of the parse that `parsed` committed, in order (see readParsedBatches). */
export async function readParsedChunks(store: EventStore, parsed: ParseRef, lifecycle: readonly RecordedEvent[]): Promise<Chunk[]> {
  return (await readParsedBatches(store, parsed, lifecycle)).flatMap((b) => b.data.chunks);
}

/** A chunk as the passage store keeps it (the indexer writes these, and reindex again), with the versions that hold it. */
export function passageOf(documentId: string, documentName: string, chunk: Chunk, versions: { first: number; last: number } = { first: 1, last: 1 }): Passage {
  return {
    chunkId: chunk.chunk_id,
    documentId,
    documentName,
    index: chunk.index,
    page: chunk.page,
    headingPath: chunk.heading_path,
    text: chunk.text,
    charStart: chunk.char_start,
    charEnd: chunk.char_end,
    tokenCount: chunk.token_count,
    ...(chunk.boxes && { boxes: chunk.boxes }),
    firstVersion: versions.first,
    lastVersion: versions.last,
  };
}
