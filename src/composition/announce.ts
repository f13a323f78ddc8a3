import type { Authenticator } from '../app/services/api-keys.ts';
import type { LiveFeed } from '../app/live-feed.ts';
import { eventCatalog } from '../../schemas/events/index.ts';
import { categoryOfStream } from '../../schemas/topics.ts';
import type { RecordedEvent } from '../ports/event-store.ts';
import { knowledgeBaseFeedKey, lifecycleMessage, publishDocumentMessage } from '../app/document-feed.ts';

/** The stream categories whose events reach waiting requests. */
const ANNOUNCED_CATEGORIES = new Set(['document', 'workflow_run']);

/** Event types the API process reacts to once they are projected: exactly what `announcer` handles. */
export const ANNOUNCED_TYPES: ReadonlySet<string> = new Set([
  'ApiKeyRevoked',
  'KnowledgeBaseDeleted',
  ...Object.entries(eventCatalog)
    .filter(([, entry]) => ANNOUNCED_CATEGORIES.has(entry.category))
    .map(([type]) => type),
]);

/**
 * What an API process does with projected events: forget a revoked key's cached principal, and tell
 * waiting requests (a document's and a knowledge base's event streams, blocking and streaming runs)
 * what happened.
 */
export function announcer(feed: LiveFeed, authenticator: Authenticator) {
  return (batch: readonly RecordedEvent[]) => {
    for (const event of batch) {
      if (event.type === 'ApiKeyRevoked') authenticator.evictKey(event.data.key_id);
      if (event.type === 'KnowledgeBaseDeleted') feed.publish(knowledgeBaseFeedKey(event.data.knowledge_base_id), lifecycleMessage(event));
      const category = categoryOfStream(event.streamId);
      // Every event of a document's stream names the document and its knowledge base.
      if (category === 'document' && 'document_id' in event.data && 'knowledge_base_id' in event.data) publishDocumentMessage(feed, event.data, lifecycleMessage(event));
      else if (category === 'workflow_run') feed.publish(event.streamId.slice(category.length + 1), { event: event.type, data: event.data });
    }
  };
}
