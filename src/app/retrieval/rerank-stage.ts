import { underHeadings } from '../../domain/retrieval/passage-text.ts';
import type { Reranker } from '../../ports/models.ts';
import type { WorkspaceModelResolver } from '../services/workspace-models.ts';
import { modelUnavailable } from './errors.ts';
import type { Stage } from './stages.ts';

/** How far down the fused list the reranker reads. */
export const RERANK_DEPTH = 50;

/**
 * With rerank on, the reranker (the knowledge base's `settings.rerank.model`, else the default)
 * reads the head of the ranking, each chunk under its headings as the indexes saw it, and its
 * order and scores replace the head's; the rest of the ranking is dropped.
 */
export function rerankStage(rerankers: ReadonlyMap<string, Reranker>, defaultReranker: string, workspaceModels?: Pick<WorkspaceModelResolver, 'reranker'>): Stage {
  return {
    name: 'rerank',
    async run({ query, kb, options, ranked }, { passages, signal }) {
      if (!options.rerank || ranked.length === 0) return ranked;
      const modelId = kb.settings.rerank.model ?? defaultReranker;
      // A workspace provider's model is looked up in the knowledge base's own workspace only.
      const reranker = rerankers.get(modelId) ?? (await workspaceModels?.reranker(kb.workspace_id, modelId));
      if (!reranker) throw modelUnavailable('Rerank', modelId);
      const head = ranked.slice(0, Math.max(RERANK_DEPTH, options.topK));
      const found = await passages.get(head.map((r) => r.candidate.id));
      const pool = head.filter((r) => found.has(r.candidate.id));
      const texts = pool.map((r) => {
        const p = found.get(r.candidate.id)!;
        return underHeadings(p.headingPath, p.text);
      });
      const scored = await reranker.rerank(query, texts, pool.length, signal);
      return scored.map(({ index, score }) => ({ candidate: pool[index]!.candidate, rerank: score }));
    },
  };
}
