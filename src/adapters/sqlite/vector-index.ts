import * as sqliteVec from 'sqlite-vec';
import type { VectorIndex } from '../../ports/vector-index.ts';
import { immediate, type SqliteDatabase, type Statement } from './database.ts';

/**
 * sqlite-vec: exact cosine k-NN in a vec0 table per vector width, partitioned by namespace,
 * with the document id as a filterable column. Persisted in the same file as everything else.
 */
export function createSqliteVectorIndex(db: SqliteDatabase): VectorIndex {
  sqliteVec.load(db);
  db.exec(`
    CREATE TABLE IF NOT EXISTS vector_rows (
      vec_rowid INTEGER PRIMARY KEY AUTOINCREMENT,
      namespace TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL, dims INTEGER NOT NULL,
      UNIQUE (namespace, chunk_id)
    );
    CREATE INDEX IF NOT EXISTS vector_rows_by_document ON vector_rows (namespace, document_id);`);
  type Table = { name: string; insert: Statement; remove: Statement };
  const tables = new Map<number, Table>();
  /** The vec0 table for one vector width, created on first use, with its statements prepared once. */
  const tableFor = (dims: number): Table => {
    let table = tables.get(dims);
    if (table) return table;
    if (!Number.isInteger(dims) || dims < 1 || dims > 8192) throw new Error(`unsupported vector width ${dims}`);
    const name = `vectors_${dims}`;
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${name} USING vec0(
      namespace TEXT PARTITION KEY, embedding FLOAT[${dims}] distance_metric=cosine, document_id TEXT, +chunk_id TEXT)`);
    table = {
      name,
      insert: db.prepare(`INSERT INTO ${name} (rowid, namespace, embedding, document_id, chunk_id) VALUES (?, ?, ?, ?, ?)`),
      remove: db.prepare(`DELETE FROM ${name} WHERE rowid = ?`),
    };
    tables.set(dims, table);
    return table;
  };
  const findRow = db.prepare<[string, string], { vec_rowid: number; dims: number }>(
    'SELECT vec_rowid, dims FROM vector_rows WHERE namespace = ? AND chunk_id = ?',
  );
  const addRow = db.prepare('INSERT INTO vector_rows (namespace, chunk_id, document_id, dims) VALUES (?, ?, ?, ?)');
  const rowsWhere = (clause: string) =>
    db.prepare<[string, ...string[]], { vec_rowid: number; dims: number }>(`SELECT vec_rowid, dims FROM vector_rows WHERE ${clause}`);
  const ofDocument = rowsWhere('namespace = ? AND document_id = ?');
  const ofNamespace = rowsWhere('namespace = ?');
  const countRows = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM vector_rows WHERE namespace = ?');

  const dropRow = db.prepare('DELETE FROM vector_rows WHERE vec_rowid = ?');
  const removeRows = (rows: { vec_rowid: number; dims: number }[]) => {
    for (const row of rows) {
      tableFor(row.dims).remove.run(BigInt(row.vec_rowid));
      dropRow.run(row.vec_rowid);
    }
  };

  return {
    async upsert(namespace, records) {
      immediate(db, () => {
        for (const record of records) {
          const existing = findRow.get(namespace, record.id);
          if (existing) removeRows([existing]);
          const dims = record.values.length;
          const { lastInsertRowid } = addRow.run(namespace, record.id, record.documentId, dims);
          tableFor(dims).insert.run(
            BigInt(lastInsertRowid),
            namespace,
            Buffer.from(record.values.buffer, record.values.byteOffset, record.values.byteLength),
            record.documentId,
            record.id,
          );
        }
      });
    },
    async deleteByDocument(namespace, documentId) {
      immediate(db, () => removeRows(ofDocument.all(namespace, documentId)));
    },
    async deleteNamespace(namespace) {
      immediate(db, () => removeRows(ofNamespace.all(namespace)));
    },
    async query(namespace, vector, topK, filter) {
      if (topK < 1) return [];
      if (filter?.documentIds && filter.documentIds.length === 0) return [];
      const ids = filter?.documentIds ?? [];
      const inList = ids.length > 0 ? ` AND document_id IN (${ids.map(() => '?').join(',')})` : '';
      const table = tableFor(vector.length).name;
      const rows = db
        .prepare(`SELECT chunk_id, document_id, distance FROM ${table} WHERE embedding MATCH ? AND k = ? AND namespace = ?${inList}`)
        .all(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), Math.min(topK, 4096), namespace, ...ids) as {
        chunk_id: string;
        document_id: string;
        distance: number;
      }[];
      return rows.map((r) => ({ id: r.chunk_id, documentId: r.document_id, score: 1 - r.distance }));
    },
    async count(namespace) {
      return countRows.get(namespace)?.n ?? 0;
    },
    async ping() {
      db.prepare('SELECT vec_version()').get();
    },
  };
}
