import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { LiveFeed, FeedMessage } from '../app/live-feed.ts';
import { documentDecider } from '../domain/document/document.ts';
import type { EventStore } from '../ports/event-store.ts';
import { documentStory, lifecycleMessage } from './document-story.ts';
import { toApiError } from './errors.ts';
import type { Reply } from './route.ts';
import { SSE_HEADERS } from './sse-chat.ts';

export type DocumentEventsDeps = { store: EventStore; feed: LiveFeed; heartbeatMs?: number; onError?: (error: unknown) => void };

const TERMINAL = new Set(['DocumentIndexed', 'DocumentFailed', 'DocumentDeleted']);

/**
 * The document's story so far from the log, then live events and progress as they happen; the
 * stream ends when the document is ready, failed or deleted. Subscribing before reading the log
 * means nothing falls between the two; the story (document-story.ts) drops what arrives twice and
 * puts the parse's chunk batches in. Messages are told one after the other, in arrival order.
 */
export async function streamDocumentEvents(ctx: Context, { store, feed, heartbeatMs = 15_000, onError }: DocumentEventsDeps, documentId: string): Promise<Reply> {
  const out = new PassThrough();
  const tell = documentStory(store);
  let ended = false;
  let queue = Promise.resolve();
  const write = ({ event, data }: FeedMessage) => {
    if (ended) return;
    out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (TERMINAL.has(event)) finish();
  };
  const fail = (error: unknown) => {
    if (ended) return;
    onError?.(error);
    const { status, type, code, message, param } = toApiError(error);
    out.write(`event: error\ndata: ${JSON.stringify({ error: { message, type, param, code }, status })}\n\n`);
    finish();
  };
  const send = (message: FeedMessage) => {
    queue = queue.then(async () => (ended ? undefined : (await tell(message)).forEach(write))).catch(fail);
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
  return { headers: SSE_HEADERS, body: out };
}
