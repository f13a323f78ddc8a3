import { documentEvents } from '../../schemas/events/document.ts';
import { reportOfRecorded } from '../domain/document/failures.ts';
import type { RecordedEvent } from '../ports/event-store.ts';
import type { FeedMessage, LiveFeed } from './live-feed.ts';

/**
 * What the live feed carries about documents, and under which keys: each message goes to the
 * document's own key (its id, for GET …/documents/{id}/events) and to its knowledge base's (for
 * GET …/documents/events, every document of the base).
 */
export const knowledgeBaseFeedKey = (knowledgeBaseId: string) => `${knowledgeBaseId}/documents`;

/** A document's lifecycle events (no chunk text: chunks have streams of their own), and the end of its knowledge base. */
export const KNOWLEDGE_BASE_FEED_TYPES: ReadonlySet<string> = new Set([...Object.keys(documentEvents), 'KnowledgeBaseDeleted']);

/** The status a document has once the event happened, for a client that only shows it; metadata changes leave it as it was. */
const STATUS_AFTER: Partial<Record<string, string>> = {
  DocumentUploaded: 'queued',
  DocumentParsingStarted: 'parsing',
  DocumentParsed: 'indexing',
  DocumentIndexed: 'ready',
  DocumentFailed: 'failed',
  DocumentDeleted: 'deleted',
};

/** A lifecycle event as a client sees it: with its stream revision, the status it leads to, and chunk batches summarised, not shipped. */
export function lifecycleMessage(event: RecordedEvent): FeedMessage {
  const status = STATUS_AFTER[event.type];
  return { event: event.type, data: { ...summary(event), revision: event.revision, ...(status && { status }) }, position: event.position };
}

function summary(event: RecordedEvent): Record<string, unknown> {
  // A failure in today's words, as GET …/documents/{id} reports it (an event from before the catalogue too).
  if (event.type === 'DocumentFailed') {
    const { detail: _recorded, ...data } = event.data;
    return { ...data, ...reportOfRecorded(event.data) };
  }
  if (event.type !== 'DocumentChunksExtracted') return event.data;
  const { chunks, ...data } = event.data;
  return { ...data, chunk_count: chunks.length };
}

type DocumentIds = { document_id: string; knowledge_base_id: string };

export function publishDocumentMessage(feed: LiveFeed, ids: DocumentIds, message: FeedMessage) {
  feed.publish(ids.document_id, message);
  feed.publish(knowledgeBaseFeedKey(ids.knowledge_base_id), message);
}

/** Parse and index progress: too fine-grained for the log, so it is in the feed only, and never in a replay. */
export function publishProgress(feed: LiveFeed, ids: DocumentIds, progress: { stage: 'parsing' | 'indexing' } & Record<string, unknown>) {
  publishDocumentMessage(feed, ids, { event: 'progress', data: { document_id: ids.document_id, ...progress } });
}
