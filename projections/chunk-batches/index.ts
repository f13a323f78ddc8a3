import type { z } from 'zod';
import type { ChunkRecord } from '../../schemas/events/document.ts';
import { assertNever } from '../../src/domain/shared/decider.ts';
import { defineProjection } from '../projection.ts';

export type ChunkBatchDoc = {
  id: string;
  document_id: string;
  knowledge_base_id: string;
  batch_index: number;
  chunks: z.infer<typeof ChunkRecord>[];
};

/** Ids sort by document, then batch, so listing a document's batches in id order lists its chunks in order. */
export const batchId = (documentId: string, batchIndex: number) => `${documentId}:${String(batchIndex).padStart(6, '0')}`;

/** A document's chunks as the parser cut them, stored in the batches they travelled in. */
export const chunkBatchesProjection = defineProjection<ChunkBatchDoc>()({
  collection: 'chunk_batches',
  eventTypes: ['DocumentChunksExtracted', 'DocumentDeleted'],
  idsOf(event) {
    switch (event.type) {
      case 'DocumentChunksExtracted':
        return [batchId(event.data.document_id, event.data.batch_index)];
      case 'DocumentDeleted': {
        const d = event.data;
        return Array.from({ length: d.batch_count }, (_, i) => batchId(d.document_id, i));
      }
      default:
        return assertNever(event);
    }
  },
  evolve(_doc, event, id) {
    switch (event.type) {
      case 'DocumentChunksExtracted': {
        const d = event.data;
        return { id, document_id: d.document_id, knowledge_base_id: d.knowledge_base_id, batch_index: d.batch_index, chunks: d.chunks };
      }
      case 'DocumentDeleted':
        return null;
      default:
        return assertNever(event);
    }
  },
});
