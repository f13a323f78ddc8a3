import type { Authenticator } from '../app/services/api-keys.ts';
import type { LiveFeed } from '../app/live-feed.ts';
import { eventCatalog } from '../../schemas/events/index.ts';
import { categoryOfStream } from '../../schemas/topics.ts';
import type { RecordedEvent } from '../ports/event-store.ts';
import { lifecycleMessage } from '../http/sse-document-events.ts';

/** The stream categories whose events reach waiting requests. */
const ANNOUNCED_CATEGORIES = new Set(['document', 'workflow_run']);

/** Event types the API process reacts to once they are projected: exactly what `announcer` handles. */
export const ANNOUNCED_TYPES: ReadonlySet<string> = new Set([
  'ApiKeyRevoked',
  ...Object.entries(eventCatalog)
    .filter(([, entry]) => ANNOUNCED_CATEGORIES.has(entry.category))
    .map(([type]) => type),
]);

/**
 * What an API process does with projected events: forget a revoked key's cached principal, and tell
 * waiting requests (document event streams, blocking and streaming runs) what happened.
 */
export function announcer(feed: LiveFeed, authenticator: Authenticator) {
  return (batch: readonly RecordedEvent[]) => {
    for (const event of batch) {
      if (event.type === 'ApiKeyRevoked') authenticator.evictKey(event.data.key_id);
      const category = categoryOfStream(event.streamId);
      if (!ANNOUNCED_CATEGORIES.has(category)) continue;
      const id = event.streamId.slice(category.length + 1);
      feed.publish(id, category === 'document' ? lifecycleMessage(event) : { event: event.type, data: event.data });
    }
  };
}
