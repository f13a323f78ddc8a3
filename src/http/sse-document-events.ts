import type { Context } from 'koa';
import type { DocumentDoc } from '../../projections/documents/index.ts';
import type { LiveFeed, FeedMessage } from '../app/live-feed.ts';
import { presentDocument } from '../app/services/documents.ts';
import type { RecordedEvent } from '../ports/event-store.ts';
import type { ReadModelStore } from '../ports/read-models.ts';
import type { Reply } from './route.ts';
import { openEventStream } from './sse.ts';

export type DocumentEventsDeps = { readModels: ReadModelStore; feed: LiveFeed; heartbeatMs?: number };

const TERMINAL = new Set(['DocumentIndexed', 'DocumentFailed', 'DocumentDeleted']);
const SETTLED = new Set(['ready', 'failed']);

/** A lifecycle event as a client sees it: chunk batches are summarised, not shipped. */
export function lifecycleMessage(event: RecordedEvent): FeedMessage {
  return { event: event.type, data: { ...summary(event), revision: event.revision }, position: event.position };
}

function summary(event: RecordedEvent): Record<string, unknown> {
  if (event.type !== 'DocumentChunksExtracted') return event.data;
  const { chunks, ...data } = event.data;
  return { ...data, chunk_count: chunks.length };
}

/**
 * A document's progress from the query side: `event: document` with the document as the read
 * model has it (as `GET …/documents/{id}` answers), then its lifecycle events and parse and index
 * progress from the live feed as they are projected, until it is ready, failed or deleted (at once
 * when the document already is). Subscribing before reading the read model means nothing falls
 * between the two; an event at or before the document's position is already in it and is skipped,
 * and progress that arrived before the read is superseded by it. A client that leaves unsubscribes.
 */
export async function streamDocumentEvents(ctx: Context, deps: DocumentEventsDeps & { onServerError(error: unknown): void }, documentId: string): Promise<Reply> {
  const early: FeedMessage[] = [];
  let forward = (message: FeedMessage) => void early.push(message);
  const unsubscribe = deps.feed.subscribe(documentId, (message) => forward(message));
  let current: { doc: DocumentDoc | null; position: bigint } | null;
  try {
    current = await deps.readModels.getVersioned<DocumentDoc>('documents', documentId);
  } catch (error) {
    unsubscribe();
    throw error;
  }
  const stream = openEventStream(ctx, { onServerError: deps.onServerError, heartbeatMs: deps.heartbeatMs });
  stream.signal.addEventListener('abort', unsubscribe, { once: true });
  const seen = current?.position ?? -1n;
  forward = (message) => {
    if (message.position !== undefined && message.position <= seen) return;
    stream.send(message.data, message.event);
    if (TERMINAL.has(message.event)) stream.end();
  };
  const doc = current?.doc ?? null;
  if (doc === null) {
    // Deleted since the route found it.
    forward({ event: 'DocumentDeleted', data: { document_id: documentId } });
    return stream.reply;
  }
  stream.send(presentDocument(doc), 'document');
  if (SETTLED.has(doc.status)) stream.end();
  else for (const message of early) if (message.position !== undefined) forward(message);
  return stream.reply;
}
