import { KNOWLEDGE_BASE_TOTALS, type KnowledgeBaseTotals } from '../../../projections/documents/index.ts';
import type { KnowledgeBaseDoc } from '../../../projections/knowledge-bases/index.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';

export type KnowledgeBaseWithTotals = KnowledgeBaseDoc & KnowledgeBaseTotals;

/**
 * Adds each knowledge base's document count (every live document, whatever its status) and chunk
 * count (chunks of ready documents: what search can find), which the documents projection keeps
 * as totals beside the knowledge bases rather than inside them (see Projection.totals).
 */
export async function withTotals(readModels: ReadModelStore, kbs: readonly KnowledgeBaseDoc[]): Promise<KnowledgeBaseWithTotals[]> {
  const totals = await Promise.all(kbs.map((kb) => readModels.get<Partial<KnowledgeBaseTotals>>(KNOWLEDGE_BASE_TOTALS, kb.id)));
  return kbs.map((kb, i) => ({ ...kb, document_count: totals[i]?.document_count ?? 0, chunk_count: totals[i]?.chunk_count ?? 0 }));
}
