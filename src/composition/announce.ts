import type { Authenticator } from '../app/services/api-keys.ts';
import type { LiveFeed } from '../app/live-feed.ts';
import type { RecordedEvent } from '../ports/event-store.ts';
import { lifecycleMessage } from '../http/sse-document-events.ts';

/** Event types the API process reacts to once they are projected. */
export const ANNOUNCED_TYPES = new Set([
  'ApiKeyRevoked',
  'DocumentUploaded',
  'DocumentParsingStarted',
  'DocumentParsed',
  'DocumentIndexed',
  'DocumentFailed',
  'DocumentDeleted',
  'WorkflowRunRequested',
  'WorkflowRunStarted',
  'NodeRunStarted',
  'NodeRunSucceeded',
  'NodeRunFailed',
  'WorkflowRunSucceeded',
  'WorkflowRunFailed',
]);

/**
 * What an API process does with projected events: forget a revoked key's cached principal, and tell
 * waiting requests (document event streams, blocking and streaming runs) what happened.
 */
export function announcer(feed: LiveFeed, authenticator: Authenticator) {
  return (batch: readonly RecordedEvent[]) => {
    for (const event of batch) {
      if (event.type === 'ApiKeyRevoked') authenticator.evictKey((event.data as { key_id: string }).key_id);
      if (event.streamId.startsWith('document-')) feed.publish(event.streamId.slice('document-'.length), lifecycleMessage(event));
      if (event.streamId.startsWith('workflow_run-')) feed.publish(event.streamId.slice('workflow_run-'.length), { event: event.type, data: event.data as Record<string, unknown> });
    }
  };
}
