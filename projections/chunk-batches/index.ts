import type { z } from 'zod';
import type { ChunkRecord, DocumentChunksExtracted, DocumentDeleted } from '../../schemas/events/document.ts';
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
export const chunkBatchesProjection = defineProjection<ChunkBatchDoc>({
  collection: 'chunk_batches',
  eventTypes: ['DocumentChunksExtracted', 'DocumentDeleted'],
  idsOf(event) {
    if (event.type === 'DocumentChunksExtracted') {
      const d = event.data as z.infer<typeof DocumentChunksExtracted>;
      return [batchId(d.document_id, d.batch_index)];
    }
    const d = event.data as z.infer<typeof DocumentDeleted>;
    return Array.from({ length: d.batch_count }, (_, i) => batchId(d.document_id, i));
  },
  evolve(_doc, event, id) {
    if (event.type !== 'DocumentChunksExtracted') return null;
    const d = event.data as z.infer<typeof DocumentChunksExtracted>;
    return { id, document_id: d.document_id, knowledge_base_id: d.knowledge_base_id, batch_index: d.batch_index, chunks: d.chunks };
  },
});
