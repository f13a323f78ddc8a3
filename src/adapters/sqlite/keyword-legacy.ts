import type { KeywordDocument } from '../../ports/keyword-index.ts';
import { immediate, type SqliteDatabase } from './database.ts';
import { namespaceToken } from './namespaces.ts';

/**
 * Data directories written before the in-memory index kept their chunks in one FTS5 table per
 * namespace plus a `keyword_rows` map. Their text is re-indexed once, namespace by namespace,
 * and the old tables dropped, so keyword search survives the upgrade without re-ingesting.
 */
export function migrateFts5Tables(db: SqliteDatabase, upsert: (namespace: string, docs: KeywordDocument[]) => void): void {
  const exists = (name: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  if (!exists('keyword_rows')) return;
  const namespaces = db.prepare('SELECT DISTINCT namespace FROM keyword_rows').pluck().all() as string[];
  for (const namespace of namespaces) {
    const table = `fts_${namespaceToken(namespace)}`;
    if (!exists(table)) continue;
    const rows = db
      .prepare(`SELECT r.chunk_id AS id, r.document_id AS documentId, f.text AS text FROM keyword_rows r JOIN "${table}" f ON f.rowid = r.fts_rowid WHERE r.namespace = ?`)
      .all(namespace) as KeywordDocument[];
    for (let i = 0; i < rows.length; i += 1024) upsert(namespace, rows.slice(i, i + 1024));
    immediate(db, () => {
      db.exec(`DROP TABLE "${table}"`);
      db.prepare('DELETE FROM keyword_rows WHERE namespace = ?').run(namespace);
    });
  }
  immediate(db, () => db.exec('DROP TABLE keyword_rows'));
}
