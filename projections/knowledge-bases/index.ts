import type { z } from 'zod';
import type { KnowledgeBaseCreated, KnowledgeBaseUpdated } from '../../schemas/events/knowledge-base.ts';
import type { KnowledgeBaseSettings } from '../../schemas/knowledge-base-settings.ts';
import { defineProjection } from '../projection.ts';

export type KnowledgeBaseDoc = {
  id: string;
  object: 'knowledge_base';
  workspace_id: string;
  name: string;
  description: string | null;
  settings: KnowledgeBaseSettings;
  document_count: number;
  chunk_count: number;
  created_at: string;
  updated_at: string;
  /** Revision of the knowledge base's stream: the ETag clients send back in If-Match. */
  revision: number;
};

export const knowledgeBasesProjection = defineProjection<KnowledgeBaseDoc>({
  collection: 'knowledge_bases',
  eventTypes: ['KnowledgeBaseCreated', 'KnowledgeBaseUpdated', 'KnowledgeBaseDeleted', 'DocumentUploaded', 'DocumentIndexed', 'DocumentDeleted'],
  idsOf: (event) => [(event.data as { knowledge_base_id: string }).knowledge_base_id],
  evolve(doc, event) {
    switch (event.type) {
      case 'KnowledgeBaseCreated': {
        const { knowledge_base_id, ...rest } = event.data as z.infer<typeof KnowledgeBaseCreated>;
        return { id: knowledge_base_id, object: 'knowledge_base', ...rest, document_count: 0, chunk_count: 0, updated_at: rest.created_at, revision: event.revision };
      }
      case 'KnowledgeBaseUpdated': {
        const { name, description, settings, updated_at } = event.data as z.infer<typeof KnowledgeBaseUpdated>;
        return doc && { ...doc, name, description, settings, updated_at, revision: event.revision };
      }
      case 'DocumentUploaded':
        return doc && { ...doc, document_count: doc.document_count + 1 };
      case 'DocumentIndexed':
        return doc && { ...doc, chunk_count: doc.chunk_count + (event.data as { chunk_count: number }).chunk_count };
      case 'DocumentDeleted': {
        const { indexed_chunk_count } = event.data as { indexed_chunk_count: number };
        return doc && { ...doc, document_count: doc.document_count - 1, chunk_count: doc.chunk_count - indexed_chunk_count };
      }
      default:
        return null;
    }
  },
});
