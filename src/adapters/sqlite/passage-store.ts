import type { Passage, PassageStore } from '../../ports/passage-store.ts';
import { immediate, type SqliteDatabase } from './database.ts';

type Row = { chunk_id: string; document_id: string; document_name: string | null; chunk_index: number; page: number; heading_path: string; text: string };

/** One row per chunk, keyed by (namespace, chunk id); a lookup of the top k is one indexed query. */
export function createSqlitePassageStore(db: SqliteDatabase): PassageStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS passages (
      namespace TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL, document_name TEXT,
      chunk_index INTEGER NOT NULL, page INTEGER NOT NULL, heading_path TEXT NOT NULL, text TEXT NOT NULL,
      PRIMARY KEY (namespace, chunk_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS passages_by_document ON passages (namespace, document_id);`);
  addDocumentName(db);
  const put = db.prepare(
    `INSERT OR REPLACE INTO passages (namespace, chunk_id, document_id, document_name, chunk_index, page, heading_path, text)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // json_each takes any number of ids with one prepared statement.
  const select = db.prepare<[string, string], Row>(
    `SELECT chunk_id, document_id, document_name, chunk_index, page, heading_path, text FROM passages
     WHERE namespace = ? AND chunk_id IN (SELECT value FROM json_each(?))`,
  );
  const dropDocument = db.prepare('DELETE FROM passages WHERE namespace = ? AND document_id = ?');
  const dropNamespace = db.prepare('DELETE FROM passages WHERE namespace = ?');
  const countRows = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM passages WHERE namespace = ?');

  return {
    async upsert(namespace, passages) {
      immediate(db, () => {
        for (const p of passages) put.run(namespace, p.chunkId, p.documentId, p.documentName, p.index, p.page, JSON.stringify(p.headingPath), p.text);
      });
    },
    async get(namespace, chunkIds) {
      const found = new Map<string, Passage>();
      if (chunkIds.length === 0) return found;
      for (const row of select.all(namespace, JSON.stringify(chunkIds))) {
        found.set(row.chunk_id, {
          chunkId: row.chunk_id,
          documentId: row.document_id,
          documentName: row.document_name,
          index: row.chunk_index,
          page: row.page,
          headingPath: JSON.parse(row.heading_path) as string[],
          text: row.text,
        });
      }
      return found;
    },
    async deleteByDocument(namespace, documentId) {
      dropDocument.run(namespace, documentId);
    },
    async deleteNamespace(namespace) {
      dropNamespace.run(namespace);
    },
    async count(namespace) {
      return countRows.get(namespace)?.n ?? 0;
    },
    async ping() {
      countRows.get('');
    },
  };
}

/** Data directories from before names were kept get the column, empty (null) in their rows. */
function addDocumentName(db: SqliteDatabase) {
  const columns = db.prepare<[], { name: string }>('SELECT name FROM pragma_table_info(\'passages\')').all();
  if (!columns.some((c) => c.name === 'document_name')) db.exec('ALTER TABLE passages ADD COLUMN document_name TEXT');
}
