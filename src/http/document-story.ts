import { readParsedBatches } from '../app/document-chunks.ts';
import type { FeedMessage } from '../app/live-feed.ts';
import type { EventStore, RecordedEvent } from '../ports/event-store.ts';

/** A lifecycle event as a client sees it: chunk batches are summarised (their count), not shipped. */
export function lifecycleMessage(event: RecordedEvent): FeedMessage {
  return { event: event.type, data: { ...summary(event), revision: event.revision } };
}

function summary(event: RecordedEvent): Record<string, unknown> {
  if (event.type !== 'DocumentChunksExtracted') return event.data;
  const { chunks, ...data } = event.data;
  return { ...data, chunk_count: chunks.length };
}

/**
 * A document's story as its event stream tells it: the document's lifecycle, with the chunk batches
 * of its parse just before DocumentParsed, each numbered by `revision` in that order. Those are the
 * numbers the events had when chunk batches were in the document's own stream (as they still are
 * in a data directory from before issue 13, whose events pass unchanged): a batch of the parse
 * that DocumentParsed at revision r commits is r + its index, DocumentParsed and every later
 * lifecycle event move up by the batch count. The batches are read from the attempt's chunk stream
 * when DocumentParsed comes, so batches of an interrupted attempt are never told. Messages are
 * told once, in order: `tell` drops what an earlier one covered (the log and the live feed
 * overlap), and must be awaited before the next.
 */
export function documentStory(store: EventStore) {
  let told = -1;
  let batchesInLifecycle = false;
  let parsedAt: number | null = null;
  let shift = 0;

  const parseOf = (data: Record<string, unknown>) => {
    const { document_id: documentId, attempt, batch_count: batchCount, chunk_count: chunkCount } = data;
    if (typeof documentId !== 'string' || typeof attempt !== 'number' || typeof batchCount !== 'number' || typeof chunkCount !== 'number') {
      throw new Error('a DocumentParsed message without its document, attempt and counts');
    }
    return { document_id: documentId, attempt, batch_count: batchCount, chunk_count: chunkCount };
  };

  return async function tell(message: FeedMessage): Promise<FeedMessage[]> {
    const { revision } = message.data;
    if (typeof revision !== 'number') return [message];
    if (message.event === 'DocumentChunksExtracted') batchesInLifecycle = true;
    if (batchesInLifecycle) return revision > told ? [numbered(message, revision)] : [];
    if (message.event === 'DocumentParsed') {
      const parse = parseOf(message.data);
      if (revision + parse.batch_count <= told) return [];
      const batches = await readParsedBatches(store, parse, []);
      parsedAt = revision;
      shift = parse.batch_count;
      return [...batches.map((b, i) => numbered(lifecycleMessage(b), revision + i)), numbered(message, revision + shift)];
    }
    const shown = parsedAt !== null && revision > parsedAt ? revision + shift : revision;
    return shown > told ? [numbered(message, shown)] : [];
  };

  function numbered(message: FeedMessage, revision: number): FeedMessage {
    told = revision;
    return { event: message.event, data: { ...message.data, revision } };
  }
}
