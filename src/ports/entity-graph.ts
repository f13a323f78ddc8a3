import type { IndexFilter } from './vector-index.ts';

/** The entities one chunk mentions, as normalised keys (see domain/document/entities.ts). */
export type ChunkMentions = { chunkId: string; documentId: string; entities: string[] };

export type EntityNeighbour = { entity: string; weight: number };

export type GraphMatch = { id: string; documentId: string; score: number };

/**
 * Entities per chunk and their co-occurrence, one namespace per knowledge base: the graph that
 * graph recall walks from a question's entities to the chunks that mention them or their neighbours.
 */
export interface EntityGraph {
  upsert(namespace: string, mentions: ChunkMentions[]): Promise<void>;
  deleteByDocument(namespace: string, documentId: string): Promise<void>;
  /** Removes these chunks (a retired version's, issue 44); ids not stored are ignored. */
  deleteChunks(namespace: string, chunkIds: readonly string[]): Promise<void>;
  deleteNamespace(namespace: string): Promise<void>;
  /** Entities that share chunks with `entity`, most shared first. */
  neighbours(namespace: string, entity: string, limit: number): Promise<EntityNeighbour[]>;
  /** Chunks mentioning any of the weighted entities; a chunk's score sums the weights it mentions. */
  chunksMentioning(namespace: string, entities: ReadonlyMap<string, number>, topK: number, filter?: IndexFilter): Promise<GraphMatch[]>;
  /** How many chunks mention each of `entities` (capped at `cap`); unknown entities are absent. */
  mentionCounts(namespace: string, entities: readonly string[], cap?: number): Promise<Map<string, number>>;
  entityCount(namespace: string): Promise<number>;
  ping(): Promise<void>;
}
