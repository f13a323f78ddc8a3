import type { EntityGraph } from '../../ports/entity-graph.ts';
import { immediate, type SqliteDatabase } from './database.ts';

/** Mentions (entity, chunk) in one table; co-occurrence is counted from it when asked. */
export function createSqliteEntityGraph(db: SqliteDatabase): EntityGraph {
  db.exec(`
    CREATE TABLE IF NOT EXISTS graph_mentions (
      namespace TEXT NOT NULL, entity TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL,
      PRIMARY KEY (namespace, entity, chunk_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS graph_mentions_by_chunk ON graph_mentions (namespace, chunk_id);
    CREATE INDEX IF NOT EXISTS graph_mentions_by_document ON graph_mentions (namespace, document_id);`);
  const insert = db.prepare('INSERT OR IGNORE INTO graph_mentions (namespace, entity, chunk_id, document_id) VALUES (?, ?, ?, ?)');
  const clearChunk = db.prepare('DELETE FROM graph_mentions WHERE namespace = ? AND chunk_id = ?');
  const byDocument = db.prepare('DELETE FROM graph_mentions WHERE namespace = ? AND document_id = ?');
  const byNamespace = db.prepare('DELETE FROM graph_mentions WHERE namespace = ?');
  const neighbours = db.prepare<[string, string, string, number], { entity: string; weight: number }>(`
    SELECT other.entity AS entity, count(*) AS weight
    FROM graph_mentions mine JOIN graph_mentions other ON other.namespace = mine.namespace AND other.chunk_id = mine.chunk_id
    WHERE mine.namespace = ? AND mine.entity = ? AND other.entity <> ?
    GROUP BY other.entity ORDER BY weight DESC, other.entity LIMIT ?`);
  const mentionsOf = db.prepare<[string, string], { chunk_id: string; document_id: string }>(
    'SELECT chunk_id, document_id FROM graph_mentions WHERE namespace = ? AND entity = ? LIMIT 5000',
  );
  const entityCount = db.prepare<[string], { n: number }>('SELECT count(DISTINCT entity) AS n FROM graph_mentions WHERE namespace = ?');

  return {
    async upsert(namespace, mentions) {
      immediate(db, () => {
        for (const m of mentions) {
          clearChunk.run(namespace, m.chunkId);
          for (const entity of new Set(m.entities)) insert.run(namespace, entity, m.chunkId, m.documentId);
        }
      });
    },
    async deleteByDocument(namespace, documentId) {
      byDocument.run(namespace, documentId);
    },
    async deleteNamespace(namespace) {
      byNamespace.run(namespace);
    },
    async neighbours(namespace, entity, limit) {
      return neighbours.all(namespace, entity, entity, limit);
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
    async entityCount(namespace) {
      return entityCount.get(namespace)?.n ?? 0;
    },
    async ping() {
      db.prepare('SELECT 1').get();
    },
  };
}
