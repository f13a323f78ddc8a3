import type { Document } from 'mongodb';
import type { ChunkMentions, GraphMatch } from '../../ports/entity-graph.ts';

/**
 * Co-occurrence is counted over at most this many of an entity's chunks, the first by chunk id,
 * as in the embedded graph: a very common entity would otherwise make every graph query walk a
 * large share of the mentions.
 */
export const NEIGHBOUR_SAMPLE = 200;

/** Chunks read per entity when scoring, as in the embedded graph. */
export const MENTIONS_PER_ENTITY = 5000;

/** One chunk's entities, each once. */
export type GraphMentionDoc = { namespace: string; chunkId: string; documentId: string; entities: string[] };

export type Mention = { chunkId: string; documentId: string };

export const mentionDoc = (namespace: string, m: ChunkMentions): GraphMentionDoc => ({
  namespace,
  chunkId: m.chunkId,
  documentId: m.documentId,
  entities: [...new Set(m.entities)],
});

/** SQLite's LIMIT, which the embedded graph takes its caps from: a negative one is no limit (zero is the caller's to answer). */
const limited = (n: number): Document[] => (n < 0 ? [] : [{ $limit: n }]);

/** The chunks that mention `entity`, by chunk id, so the (namespace, entities, chunkId) index gives them in order. */
const mentioning = (namespace: string, entity: string): Document[] => [{ $match: { namespace, entities: entity } }, { $sort: { chunkId: 1 } }];

/** Entities sharing the sampled chunks with `entity`, most shared first, then by name. */
export const neighboursPipeline = (namespace: string, entity: string, limit: number): Document[] => [
  ...mentioning(namespace, entity),
  { $limit: NEIGHBOUR_SAMPLE },
  { $unwind: '$entities' },
  { $match: { entities: { $ne: entity } } },
  { $group: { _id: '$entities', weight: { $sum: 1 } } },
  { $sort: { weight: -1, _id: 1 } },
  ...limited(limit),
  { $project: { _id: 0, entity: '$_id', weight: 1 } },
];

export const mentionsPipeline = (namespace: string, entity: string): Document[] => [
  ...mentioning(namespace, entity),
  { $limit: MENTIONS_PER_ENTITY },
  { $project: { _id: 0, chunkId: 1, documentId: 1 } },
];

/** How many chunks mention `entity`, counting no further than `cap`. */
export const mentionCountPipeline = (namespace: string, entity: string, cap: number): Document[] => [
  { $match: { namespace, entities: entity } },
  ...limited(cap),
  { $count: 'n' },
];

export const entityCountPipeline = (namespace: string): Document[] => [
  { $match: { namespace } },
  { $unwind: '$entities' },
  { $group: { _id: '$entities' } },
  { $count: 'n' },
];

/**
 * A chunk's score sums the weights of the entities it mentions; the document filter applies to
 * each entity's sampled mentions, as in the embedded graph. Best first, chunk id breaking ties.
 */
export function scoreMentions(
  perEntity: readonly { weight: number; mentions: readonly Mention[] }[],
  topK: number,
  documentIds?: readonly string[],
): GraphMatch[] {
  const allowed = documentIds ? new Set(documentIds) : null;
  const scores = new Map<string, { documentId: string; score: number }>();
  for (const { weight, mentions } of perEntity) {
    for (const m of mentions) {
      if (allowed && !allowed.has(m.documentId)) continue;
      const entry = scores.get(m.chunkId) ?? { documentId: m.documentId, score: 0 };
      entry.score += weight;
      scores.set(m.chunkId, entry);
    }
  }
  return [...scores.entries()]
    .map(([id, { documentId, score }]) => ({ id, documentId, score }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, topK);
}
