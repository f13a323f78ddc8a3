import type { EventData } from '../../schemas/events/index.ts';
import type { DocumentDoc } from '../../schemas/read-models/documents.ts';
import type { KnowledgeBaseTotals } from '../../schemas/read-models/knowledge-bases.ts';
import { reportOfRecorded } from '../../src/domain/document/failures.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { DocumentDoc };

export const KNOWLEDGE_BASE_TOTALS = 'knowledge_base_totals';

export type { KnowledgeBaseTotals };

/** The status a client polls: queued → parsing → indexing → ready | failed. */
export const documentsProjection = defineProjection<DocumentDoc>()({
  collection: 'documents',
  eventTypes: ['DocumentUploaded', 'DocumentParsingStarted', 'DocumentParsed', 'DocumentIndexed', 'DocumentFailed', 'DocumentDeleted', 'DocumentMetadataUpdated'],
  // Every document counts toward its knowledge base; its chunks count once it is ready (searchable).
  totals: {
    collection: KNOWLEDGE_BASE_TOTALS,
    contribution: (doc) => ({ id: doc.knowledge_base_id, fields: { document_count: 1, chunk_count: doc.status === 'ready' ? (doc.chunk_count ?? 0) : 0 } }),
  },
  idsOf: (event) => [event.data.document_id],
  evolve(doc, event) {
    switch (event.type) {
      case 'DocumentUploaded':
        return uploaded(event.data);
      case 'DocumentParsingStarted': {
        const d = event.data;
        return doc && { ...doc, status: 'parsing', timings: { ...doc.timings, parsing_started_at: d.started_at }, updated_at: d.started_at };
      }
      case 'DocumentParsed': {
        const d = event.data;
        return (
          doc && {
            ...doc,
            status: 'indexing',
            media_type: d.media_type,
            page_count: d.page_count,
            page_estimated: d.page_estimated ?? false,
            chunk_count: d.chunk_count,
            ocr_pages: d.ocr_pages,
            warnings: d.warnings,
            timings: { ...doc.timings, parse_ms: d.parse_ms, parsed_at: d.parsed_at },
            updated_at: d.parsed_at,
          }
        );
      }
      case 'DocumentIndexed': {
        const d = event.data;
        return doc && { ...doc, status: 'ready', timings: { ...doc.timings, index_ms: d.index_ms, indexed_at: d.indexed_at }, updated_at: d.indexed_at };
      }
      case 'DocumentFailed': {
        const d = event.data;
        // In today's words, an event recorded before the catalogue too (domain/document/failures.ts).
        return doc && { ...doc, status: 'failed', error: { stage: d.stage, ...reportOfRecorded(d) }, updated_at: d.failed_at };
      }
      case 'DocumentDeleted':
        return null;
      case 'DocumentMetadataUpdated':
        return doc && { ...doc, metadata: event.data.metadata, updated_at: event.data.updated_at };
      default:
        return assertNever(event);
    }
  },
});

function uploaded(d: EventData<'DocumentUploaded'>): DocumentDoc {
  return {
    id: d.document_id,
    object: 'document',
    workspace_id: d.workspace_id,
    knowledge_base_id: d.knowledge_base_id,
    name: d.name,
    media_type: d.media_type,
    size_bytes: d.size_bytes,
    sha256: d.sha256,
    status: 'queued',
    metadata: d.metadata,
    chunking: d.chunking,
    ...(d.parent_document_id ? { parent_document_id: d.parent_document_id } : {}),
    page_count: null,
    chunk_count: null,
    ocr_pages: [],
    warnings: [],
    error: null,
    timings: { parse_ms: null, index_ms: null, parsing_started_at: null, parsed_at: null, indexed_at: null },
    created_at: d.uploaded_at,
    updated_at: d.uploaded_at,
  };
}
