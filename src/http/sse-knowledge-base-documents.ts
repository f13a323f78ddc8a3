import type { Context } from 'koa';
import { KNOWLEDGE_BASE_FEED_TYPES, knowledgeBaseFeedKey, lifecycleMessage } from '../app/document-feed.ts';
import { holdFeed, type FeedMessage, type LiveFeed } from '../app/live-feed.ts';
import { readLogRange } from '../app/log-range.ts';
import type { ProjectionWatch } from '../app/projection-watch.ts';
import type { EventStore } from '../ports/event-store.ts';
import { badRequest } from '../app/errors.ts';
import type { Reply } from './route.ts';
import { openEventStream } from './sse.ts';

export type KnowledgeBaseFeedDeps = {
  store: EventStore;
  projections: ProjectionWatch;
  feed: LiveFeed;
  /** How long a replayed event waits for the read models to show it before it is sent anyway. */
  waitMs: number;
  heartbeatMs?: number;
};

/**
 * Every document of a knowledge base, one stream (GET …/documents/events). Lifecycle events carry
 * `id:`, their global log position, so a client that comes back with `Last-Event-ID` is sent what
 * it missed from the log, then `ready`, then the live feed; a new client gets `ready` at once.
 * `ready`'s id is the log's head when the stream opened: everything up to it has been sent (or
 * came before the stream), and live events at or before it are dropped, so nothing comes twice
 * and nothing falls between the replay and the feed. Progress has no id (it is not in the log: a
 * resumed stream does not repeat it). The knowledge base's deletion ends the stream.
 */
export async function streamKnowledgeBaseDocuments(
  ctx: Context,
  deps: KnowledgeBaseFeedDeps & { onServerError(error: unknown): void },
  knowledgeBaseId: string,
  lastEventId: bigint | null,
): Promise<Reply> {
  // Subscribed before the head is read: whatever is appended after it reaches the feed after this.
  const held = holdFeed(deps.feed, knowledgeBaseFeedKey(knowledgeBaseId));
  let head: bigint;
  try {
    head = await deps.store.headPosition();
    if (lastEventId !== null && lastEventId > head) throw lastEventIdAhead(lastEventId, head);
  } catch (error) {
    held.unsubscribe();
    throw error;
  }
  const stream = openEventStream(ctx, { onServerError: deps.onServerError, heartbeatMs: deps.heartbeatMs });
  stream.signal.addEventListener('abort', held.unsubscribe, { once: true });
  const send = (message: FeedMessage) => {
    stream.send(message.data, message.event, message.position?.toString());
    if (message.event === 'KnowledgeBaseDeleted') stream.end();
  };
  const mine = (data: Record<string, unknown>) => data.knowledge_base_id === knowledgeBaseId;
  void (async () => {
    if (lastEventId !== null) {
      await readLogRange(deps.store, { after: lastEventId, through: head, types: KNOWLEDGE_BASE_FEED_TYPES, signal: stream.signal }, async (events) => {
        const missed = events.filter((event) => mine(event.data));
        // As live events are: sent once the read models show them, so a client that reads after one sees it.
        await deps.projections.waitFor(missed.map((e) => ({ streamId: e.streamId, position: e.position })), deps.waitMs).catch(() => {});
        for (const event of missed) send(lifecycleMessage(event));
      });
    }
    stream.send({ object: 'knowledge_base.documents.ready', knowledge_base_id: knowledgeBaseId, position: String(head) }, 'ready', String(head));
    held.release((message) => (message.position === undefined || message.position > head ? send(message) : undefined));
  })().catch((error: unknown) => stream.fail(error));
  return stream.reply;
}

/** A position this log never reached: the client followed another deployment, or one whose data was reset. */
const lastEventIdAhead = (lastEventId: bigint, head: bigint) =>
  badRequest('last_event_id_ahead', `Last-Event-ID ${lastEventId} is past the newest event (${head}): this stream never sent it; reconnect without it.`, 'Last-Event-ID');

/** The header as a position: absent, null; anything but a decimal position, a 400 (EventSource sends back exactly the id it was given). */
export function parseLastEventId(header: string): bigint | null {
  if (header === '') return null;
  if (!/^\d{1,20}$/.test(header.trim())) throw badRequest('invalid_last_event_id', 'Last-Event-ID must be an id this stream sent: a decimal log position.', 'Last-Event-ID');
  return BigInt(header.trim());
}
