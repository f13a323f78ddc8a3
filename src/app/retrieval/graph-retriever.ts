import { entityCandidates, entityWeights } from '../../domain/retrieval/graph-query.ts';
import type { EntityGraph } from '../../ports/entity-graph.ts';
import type { ReadModelStore } from '../../ports/read-models.ts';
import { withTotals } from '../services/knowledge-base-totals.ts';
import type { Retriever } from './retriever.ts';

/** Neighbours of a question's entities count for less than the entities themselves. */
const NEIGHBOUR_WEIGHT = 0.3;

/**
 * The question's entities, weighed by rarity over the knowledge base's chunks; the three strongest
 * bring their five most co-occurring neighbours; a chunk scores the weights of what it mentions,
 * as a share of what the question asked for (1: it names every entity of the question).
 */
export function graphRetriever(graph: EntityGraph, readModels: ReadModelStore): Retriever {
  return {
    recall: 'graph',
    async retrieve({ text, kb, depth, filter }) {
      const counts = await graph.mentionCounts(kb.id, entityCandidates(text));
      const [withCounts] = await withTotals(readModels, [kb]);
      const weights = entityWeights(counts, withCounts!.chunk_count);
      const asked = [...weights.values()].reduce((a, b) => a + b, 0);
      if (asked === 0) return [];
      const walk = new Map(weights);
      const strongest = [...weights.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
      for (const [entity, weight] of strongest) {
        const neighbours = await graph.neighbours(kb.id, entity, 5);
        const most = neighbours[0]?.weight ?? 1;
        for (const n of neighbours) {
          if (!walk.has(n.entity)) walk.set(n.entity, (NEIGHBOUR_WEIGHT * weight * n.weight) / most);
        }
      }
      const matches = await graph.chunksMentioning(kb.id, walk, depth, filter);
      return matches.map((m) => ({ ...m, score: m.score / asked }));
    },
  };
}
