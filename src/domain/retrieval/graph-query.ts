import { extractEntities, normalise } from '../document/entities.ts';

/**
 * The entity keys a question might name. Questions are often typed in lower case, where
 * capitalisation says nothing, so besides the entities the extractor finds, every run of one to
 * three words is offered; the graph keeps only those it knows.
 */
export function entityCandidates(question: string, maxWords = 3): string[] {
  const candidates = new Set(extractEntities(question));
  const words = question.match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= maxWords && i + n <= words.length; n++) {
      const key = normalise(words.slice(i, i + n).join(' '));
      if (key.length > 1) candidates.add(key);
    }
  }
  return [...candidates];
}

/**
 * How much each matched entity counts: rare entities say more about a chunk than common ones,
 * as inverse document frequency over the knowledge base's chunks.
 */
export function entityWeights(mentionCounts: ReadonlyMap<string, number>, chunkCount: number): Map<string, number> {
  const total = Math.max(chunkCount, ...mentionCounts.values(), 1);
  const weights = new Map<string, number>();
  for (const [entity, df] of mentionCounts) weights.set(entity, Math.log(1 + total / df));
  return weights;
}
