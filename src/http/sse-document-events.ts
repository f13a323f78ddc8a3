import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { LiveFeed, FeedMessage } from '../app/live-feed.ts';
import { documentDecider } from '../domain/document/document.ts';
import type { EventStore, RecordedEvent } from '../ports/event-store.ts';
import type { Reply } from './route.ts';

export type DocumentEventsDeps = { store: EventStore; feed: LiveFeed; heartbeatMs?: number };

const TERMINAL = new Set(['DocumentIndexed', 'DocumentFailed', 'DocumentDeleted']);

/** A lifecycle event as a client sees it: chunk batches are summarised, not shipped. */
export function lifecycleMessage(event: RecordedEvent): FeedMessage {
  return { event: event.type, data: { ...summary(event), revision: event.revision } };
}

function summary(event: RecordedEvent): Record<string, unknown> {
  if (event.type !== 'DocumentChunksExtracted') return event.data;
  const { chunks, ...data } = event.data;
  return { ...data, chunk_count: chunks.length };
}

/**
 * The document's story so far from the log, then live events and progress as they happen; the
 * stream ends when the document is ready, failed or deleted. Subscribing before reading the log
 * means nothing falls between the two; revisions drop what arrives twice.
 */
export async function streamDocumentEvents(ctx: Context, { store, feed, heartbeatMs = 15_000 }: DocumentEventsDeps, documentId: string): Promise<Reply> {
  const out = new PassThrough();
  let lastRevision = -1;
  let ended = false;
  const send = ({ event, data }: FeedMessage) => {
    if (ended) return;
    const revision = typeof data.revision === 'number' ? data.revision : null;
    if (revision !== null) {
      if (revision <= lastRevision) return;
      lastRevision = revision;
    }
    out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (TERMINAL.has(event)) finish();
  };
  const pending: FeedMessage[] = [];
  let replaying = true;
  const unsubscribe = feed.subscribe(documentId, (m) => (replaying ? pending.push(m) : send(m)));
  const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), heartbeatMs);
  const finish = () => {
    ended = true;
    unsubscribe();
    clearInterval(heartbeat);
    out.end();
  };
  ctx.req.on('close', finish);
  for (const event of await store.readStream(documentDecider.streamId(documentId))) send(lifecycleMessage(event));
  replaying = false;
  pending.forEach(send);
  ctx.req.socket.setTimeout(0);
  return {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
    body: out,
  };
}
