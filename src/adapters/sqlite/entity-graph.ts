import type { EntityGraph } from '../../ports/entity-graph.ts';
import { immediate, type SqliteDatabase } from './database.ts';

/**
 * Mentions (entity, chunk) in one table and chunk → document in another; co-occurrence is
 * counted from the mentions when asked. Kept lean: each mention costs two b-tree entries.
 */
const NEIGHBOUR_SAMPLE = 200;

export function createSqliteEntityGraph(db: SqliteDatabase): EntityGraph {
  db.exec(`
    CREATE TABLE IF NOT EXISTS graph_chunks (
      namespace TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL,
      PRIMARY KEY (namespace, chunk_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS graph_chunks_by_document ON graph_chunks (namespace, document_id);
    CREATE TABLE IF NOT EXISTS graph_entity_mentions (
      namespace TEXT NOT NULL, entity TEXT NOT NULL, chunk_id TEXT NOT NULL,
      PRIMARY KEY (namespace, entity, chunk_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS graph_entity_mentions_by_chunk ON graph_entity_mentions (namespace, chunk_id);`);
  const known = db.prepare<[string, string], { document_id: string }>('SELECT document_id FROM graph_chunks WHERE namespace = ? AND chunk_id = ?');
  const addChunk = db.prepare('INSERT OR REPLACE INTO graph_chunks (namespace, chunk_id, document_id) VALUES (?, ?, ?)');
  const insert = db.prepare('INSERT OR IGNORE INTO graph_entity_mentions (namespace, entity, chunk_id) VALUES (?, ?, ?)');
  const clearChunk = db.prepare('DELETE FROM graph_entity_mentions WHERE namespace = ? AND chunk_id = ?');
  const mentionsOfDocument = db.prepare(
    'DELETE FROM graph_entity_mentions WHERE namespace = ? AND chunk_id IN (SELECT chunk_id FROM graph_chunks WHERE namespace = ? AND document_id = ?)',
  );
  const chunksOfDocument = db.prepare('DELETE FROM graph_chunks WHERE namespace = ? AND document_id = ?');
  const dropChunk = db.prepare('DELETE FROM graph_chunks WHERE namespace = ? AND chunk_id = ?');
  // Co-occurrence is counted over at most NEIGHBOUR_SAMPLE of the entity's chunks: a very common
  // entity would otherwise make every graph query walk a large share of the mentions table.
  const neighbours = db.prepare<[string, string, number, string, number], { entity: string; weight: number }>(`
    WITH mine AS (SELECT namespace, chunk_id FROM graph_entity_mentions WHERE namespace = ? AND entity = ? LIMIT ?)
    SELECT other.entity AS entity, count(*) AS weight
    FROM mine
    JOIN graph_entity_mentions other INDEXED BY graph_entity_mentions_by_chunk ON other.namespace = mine.namespace AND other.chunk_id = mine.chunk_id
    WHERE other.entity <> ?
    GROUP BY other.entity ORDER BY weight DESC, other.entity LIMIT ?`);
  const mentionsOf = db.prepare<[string, string], { chunk_id: string; document_id: string }>(`
    SELECT m.chunk_id, c.document_id FROM graph_entity_mentions m
    JOIN graph_chunks c ON c.namespace = m.namespace AND c.chunk_id = m.chunk_id
    WHERE m.namespace = ? AND m.entity = ? LIMIT 5000`);
  // The cap keeps counting a very common entity from walking its whole index range.
  const mentionCount = db.prepare<[string, string, number], { n: number }>(
    'SELECT count(*) AS n FROM (SELECT 1 FROM graph_entity_mentions WHERE namespace = ? AND entity = ? LIMIT ?)',
  );
  const entityCount = db.prepare<[string], { n: number }>('SELECT count(DISTINCT entity) AS n FROM graph_entity_mentions WHERE namespace = ?');

  return {
    async upsert(namespace, mentions) {
      immediate(db, () => {
        for (const m of mentions) {
          if (known.get(namespace, m.chunkId)) clearChunk.run(namespace, m.chunkId);
          addChunk.run(namespace, m.chunkId, m.documentId);
          for (const entity of new Set(m.entities)) insert.run(namespace, entity, m.chunkId);
        }
      });
    },
    async deleteByDocument(namespace, documentId) {
      immediate(db, () => {
        mentionsOfDocument.run(namespace, namespace, documentId);
        chunksOfDocument.run(namespace, documentId);
      });
    },
    async deleteChunks(namespace, chunkIds) {
      immediate(db, () => {
        for (const id of chunkIds) {
          clearChunk.run(namespace, id);
          dropChunk.run(namespace, id);
        }
      });
    },
    async deleteNamespace(namespace) {
      immediate(db, () => {
        db.prepare('DELETE FROM graph_entity_mentions WHERE namespace = ?').run(namespace);
        db.prepare('DELETE FROM graph_chunks WHERE namespace = ?').run(namespace);
      });
    },
    async neighbours(namespace, entity, limit) {
      return neighbours.all(namespace, entity, NEIGHBOUR_SAMPLE, entity, limit);
    },
    async chunksMentioning(namespace, entities, topK, filter) {
      const allowed = filter?.documentIds ? new Set(filter.documentIds) : null;
      const scores = new Map<string, { documentId: string; score: number }>();
      for (const [entity, weight] of entities) {
        for (const row of mentionsOf.all(namespace, entity)) {
          if (allowed && !allowed.has(row.document_id)) continue;
          const entry = scores.get(row.chunk_id) ?? { documentId: row.document_id, score: 0 };
          entry.score += weight;
          scores.set(row.chunk_id, entry);
        }
      }
      return [...scores.entries()]
        .map(([id, { documentId, score }]) => ({ id, documentId, score }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
        .slice(0, topK);
    },
    async mentionCounts(namespace, entities, cap = 10_000) {
      const counts = new Map<string, number>();
      for (const entity of new Set(entities)) {
        const n = mentionCount.get(namespace, entity, cap)?.n ?? 0;
        if (n > 0) counts.set(entity, n);
      }
      return counts;
    },
    async entityCount(namespace) {
      return entityCount.get(namespace)?.n ?? 0;
    },
    async ping() {
      db.prepare('SELECT 1').get();
    },
  };
}
