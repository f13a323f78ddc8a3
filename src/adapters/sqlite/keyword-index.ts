import type { KeywordIndex } from '../../ports/keyword-index.ts';
import { immediate, type SqliteDatabase, type Statement } from './database.ts';
import { namespaceToken } from './namespaces.ts';
import { toMatchExpression } from './fts-query.ts';

/**
 * SQLite FTS5 with BM25, one virtual table per namespace (so a query never scans other
 * knowledge bases), plus a row map from chunk id to FTS rowid for upserts and deletes.
 */
export function createSqliteKeywordIndex(db: SqliteDatabase): KeywordIndex {
  db.exec(`
    CREATE TABLE IF NOT EXISTS keyword_rows (
      namespace TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL, fts_rowid INTEGER NOT NULL,
      PRIMARY KEY (namespace, chunk_id)
    );
    CREATE INDEX IF NOT EXISTS keyword_rows_by_document ON keyword_rows (namespace, document_id);`);
  type Table = {
    name: string;
    insert: Statement;
    remove: Statement;
    search: Statement;
  };
  const known = new Map<string, Table>();
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  /** The namespace's FTS5 table (created on demand) with its statements prepared once. */
  const table = (namespace: string, create: boolean): Table | null => {
    const name = `fts_${namespaceToken(namespace)}`;
    let entry = known.get(name);
    if (entry) return entry;
    if (!exists.get(name)) {
      if (!create) return null;
      db.exec(`CREATE VIRTUAL TABLE "${name}" USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2')`);
    }
    entry = {
      name,
      insert: db.prepare(`INSERT INTO "${name}" (text) VALUES (?)`),
      remove: db.prepare(`DELETE FROM "${name}" WHERE rowid = ?`),
      search: db.prepare(
        `SELECT r.chunk_id, r.document_id, -bm25("${name}") AS score
         FROM "${name}" f JOIN keyword_rows r ON r.fts_rowid = f.rowid AND r.namespace = ?
         WHERE "${name}" MATCH ? ORDER BY rank LIMIT ?`,
      ),
    };
    known.set(name, entry);
    return entry;
  };
  const rowOf = db.prepare<[string, string], { fts_rowid: number }>('SELECT fts_rowid FROM keyword_rows WHERE namespace = ? AND chunk_id = ?');
  const rowsOfDocument = db.prepare<[string, string], { fts_rowid: number }>('SELECT fts_rowid FROM keyword_rows WHERE namespace = ? AND document_id = ?');
  const putRow = db.prepare('INSERT OR REPLACE INTO keyword_rows (namespace, chunk_id, document_id, fts_rowid) VALUES (?, ?, ?, ?)');
  const dropRows = db.prepare('DELETE FROM keyword_rows WHERE namespace = ? AND document_id = ?');
  const countRows = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM keyword_rows WHERE namespace = ?');

  return {
    async upsert(namespace, docs) {
      if (docs.length === 0) return;
      const { insert, remove } = table(namespace, true)!;
      immediate(db, () => {
        for (const doc of docs) {
          const existing = rowOf.get(namespace, doc.id);
          if (existing) remove.run(existing.fts_rowid);
          const { lastInsertRowid } = insert.run(doc.text);
          putRow.run(namespace, doc.id, doc.documentId, lastInsertRowid);
        }
      });
    },
    async deleteByDocument(namespace, documentId) {
      const fts = table(namespace, false);
      if (!fts) return;
      immediate(db, () => {
        for (const row of rowsOfDocument.all(namespace, documentId)) fts.remove.run(row.fts_rowid);
        dropRows.run(namespace, documentId);
      });
    },
    async deleteNamespace(namespace) {
      const fts = table(namespace, false);
      if (fts) known.delete(fts.name);
      immediate(db, () => {
        if (fts) db.exec(`DROP TABLE IF EXISTS "${fts.name}"`);
        db.prepare('DELETE FROM keyword_rows WHERE namespace = ?').run(namespace);
      });
    },
    async query(namespace, text, topK, filter) {
      const fts = table(namespace, false);
      const expression = toMatchExpression(text);
      if (!fts || !expression) return [];
      const allowed = filter?.documentIds ? new Set(filter.documentIds) : null;
      // Over-fetch when filtering: FTS5 ranks before the document filter applies.
      const limit = allowed ? topK * 10 + 100 : topK;
      const rows = fts.search.all(namespace, expression, limit) as { chunk_id: string; document_id: string; score: number }[];
      return rows
        .filter((r) => !allowed || allowed.has(r.document_id))
        .slice(0, topK)
        .map((r) => ({ id: r.chunk_id, documentId: r.document_id, score: r.score }));
    },
    async count(namespace) {
      return countRows.get(namespace)?.n ?? 0;
    },
    async ping() {
      db.prepare('SELECT 1').get();
    },
  };
}
