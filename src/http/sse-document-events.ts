import type { Context } from 'koa';
import type { DocumentDoc } from '../../projections/documents/index.ts';
import { holdFeed, type LiveFeed, type FeedMessage } from '../app/live-feed.ts';
import { presentDocument } from '../app/services/documents.ts';
import type { ReadModelStore } from '../ports/read-models.ts';
import type { Reply } from './route.ts';
import { openEventStream } from './sse.ts';

export type DocumentEventsDeps = { readModels: ReadModelStore; feed: LiveFeed; heartbeatMs?: number };

const TERMINAL = new Set(['DocumentIndexed', 'DocumentFailed', 'DocumentDeleted']);
const SETTLED = new Set(['ready', 'failed']);

/**
 * A document's progress from the query side: `event: document` with the document as the read
 * model has it (as `GET …/documents/{id}` answers), then its lifecycle events and parse and index
 * progress from the live feed as they are projected, until it is ready, failed or deleted (at once
 * when the document already is). Subscribing before reading the read model means nothing falls
 * between the two; an event at or before the document's position is already in it and is skipped,
 * and progress that arrived before the read is superseded by it. A client that leaves unsubscribes.
 */
export async function streamDocumentEvents(ctx: Context, deps: DocumentEventsDeps & { onServerError(error: unknown): void }, documentId: string): Promise<Reply> {
  const held = holdFeed(deps.feed, documentId);
  let current: { doc: DocumentDoc | null; position: bigint } | null;
  try {
    current = await deps.readModels.getVersioned<DocumentDoc>('documents', documentId);
  } catch (error) {
    held.unsubscribe();
    throw error;
  }
  const stream = openEventStream(ctx, { onServerError: deps.onServerError, heartbeatMs: deps.heartbeatMs });
  stream.signal.addEventListener('abort', held.unsubscribe, { once: true });
  const seen = current?.position ?? -1n;
  const forward = (message: FeedMessage) => {
    if (message.position !== undefined && message.position <= seen) return;
    stream.send(message.data, message.event);
    if (TERMINAL.has(message.event)) stream.end();
  };
  const doc = current?.doc ?? null;
  if (doc === null) {
    // Deleted since the route found it.
    forward({ event: 'DocumentDeleted', data: { document_id: documentId, status: 'deleted' } });
    return stream.reply;
  }
  stream.send(presentDocument(doc), 'document');
  if (SETTLED.has(doc.status)) stream.end();
  else held.release(forward, (message) => message.position !== undefined);
  return stream.reply;
}
