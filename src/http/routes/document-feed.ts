import type { DocumentService } from '../../app/services/documents.ts';
import { route } from '../route.ts';
import { type KnowledgeBaseFeedDeps, parseLastEventId, streamKnowledgeBaseDocuments } from '../sse-knowledge-base-documents.ts';

/** GET …/documents/events: every document of a knowledge base in one stream (sse-knowledge-base-documents.ts). Registered before …/documents/{document_id}. */
export function documentFeedRoute(documents: DocumentService, deps: KnowledgeBaseFeedDeps, onServerError: (error: unknown, requestId: string) => void) {
  return route({
    method: 'get',
    path: '/v1/knowledge-bases/:kb_id/documents/events',
    summary: 'Server-sent events: every document of the knowledge base, its lifecycle and progress, resumable with Last-Event-ID',
    tag: 'documents',
    scope: 'read',
    eventStream:
      'Each lifecycle step of every document of the knowledge base as it happens: `id:` its log position, `event:` its type (DocumentUploaded, DocumentParsingStarted, DocumentParsed, DocumentIndexed, DocumentFailed with `code`, `message` and `detail` (docs/api/documents.md: why a document failed), DocumentDeleted, DocumentMetadataUpdated), `data:` its JSON with `document_id`, `revision` and `status` (queued, parsing, indexing, ready, failed, deleted); `progress` events without an id (`document_id`, `stage`, pages or chunks done). Sent with `Last-Event-ID`, the stream first replays what followed that id; then `event: ready` (its id the position the stream is caught up to), then live events. A comment line every 15 s keeps it open; the knowledge base\'s deletion (`event: KnowledgeBaseDeleted`) ends it. 400 `invalid_last_event_id` or `last_event_id_ahead` for an id this stream never sent.',
    handle: async ({ ctx, principal, params, requestId }) => {
      const kb = await documents.knowledgeBase(principal, params.kb_id);
      const lastEventId = parseLastEventId(ctx.get('last-event-id'));
      return streamKnowledgeBaseDocuments(ctx, { ...deps, onServerError: (error) => onServerError(error, requestId) }, kb.id, lastEventId);
    },
  });
}
