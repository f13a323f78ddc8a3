import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';

export type KnowledgeBaseWithTotals = KnowledgeBaseDoc & { document_count: number; chunk_count: number };

/**
 * Adds each knowledge base's document count (every live document, whatever its status) and chunk
 * count (chunks of ready documents: what search can find), summed over the documents read model.
 */
export async function withTotals(readModels: ReadModelStore, kbs: readonly KnowledgeBaseDoc[]): Promise<KnowledgeBaseWithTotals[]> {
  const ids = kbs.map((kb) => kb.id);
  const [documents, ready] = await Promise.all([
    readModels.totals('documents', 'knowledge_base_id', ids, []),
    readModels.totals('documents', 'knowledge_base_id', ids, ['chunk_count'], { status: 'ready' }),
  ]);
  return kbs.map((kb) => ({
    ...kb,
    document_count: documents.get(kb.id)?.count ?? 0,
    chunk_count: ready.get(kb.id)?.sums.chunk_count ?? 0,
  }));
}
