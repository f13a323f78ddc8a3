import type { KnowledgeBaseDoc } from '../../schemas/read-models/knowledge-bases.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type { KnowledgeBaseDoc };

export const knowledgeBasesProjection = defineProjection<KnowledgeBaseDoc>()({
  collection: 'knowledge_bases',
  // Only the knowledge base's own stream: its document and chunk counts are totals of the
  // documents read model (see app/services/knowledge-base-totals.ts), so this document never
  // depends on the order in which other streams' events arrive (Kafka orders per stream only).
  eventTypes: ['KnowledgeBaseCreated', 'KnowledgeBaseUpdated', 'KnowledgeBaseDeleted', 'KnowledgeBaseReindexRequested', 'KnowledgeBaseReindexed', 'KnowledgeBaseReindexFailed'],
  idsOf: (event) => [event.data.knowledge_base_id],
  evolve(doc, event) {
    switch (event.type) {
      case 'KnowledgeBaseCreated': {
        const { knowledge_base_id, ...rest } = event.data;
        return { id: knowledge_base_id, object: 'knowledge_base', ...rest, updated_at: rest.created_at, revision: event.revision };
      }
      case 'KnowledgeBaseUpdated': {
        const { name, description, settings, vector_store, updated_at } = event.data;
        return doc && { ...doc, name, description, settings, ...(vector_store && { vector_store }), updated_at, revision: event.revision };
      }
      case 'KnowledgeBaseDeleted':
        return null;
      case 'KnowledgeBaseReindexRequested': {
        const { reindex_id: id, embedding_model, requested_at } = event.data;
        const reindex = { id, status: 'queued' as const, embedding_model, requested_at, started_at: null, finished_at: null, documents: null, chunks: null, error: null };
        return doc && { ...doc, reindex, revision: event.revision };
      }
      case 'KnowledgeBaseReindexed': {
        const { started_at, finished_at, documents, chunks } = event.data;
        return doc && { ...doc, ...(doc.reindex && { reindex: { ...doc.reindex, status: 'succeeded', started_at, finished_at, documents, chunks } }), revision: event.revision };
      }
      case 'KnowledgeBaseReindexFailed': {
        const { code, message, failed_at } = event.data;
        return doc && { ...doc, ...(doc.reindex && { reindex: { ...doc.reindex, status: 'failed', finished_at: failed_at, error: { code, message } } }), revision: event.revision };
      }
      default:
        return assertNever(event);
    }
  },
});
