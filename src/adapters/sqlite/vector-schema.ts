import * as sqliteVec from 'sqlite-vec';
import { CODE_FORMAT, encoderFor } from './vector-codes.ts';
import { immediate, type SqliteDatabase } from './database.ts';

/**
 * - vector_chunks: one small row per chunk with its search codes (vector-codes.ts), so that
 *   loading a namespace reads about 600 bytes a vector instead of the floats;
 * - vector_embeddings: the float32 vectors, kept to rebuild the codes from when their format
 *   changes (re-embedding would cost far more);
 * - vector_namespaces: a version per namespace that every write bumps, by which an in-memory
 *   copy tells that someone else has written since it was loaded;
 * - vector_settings: the format of the stored codes.
 */
export function prepareVectorSchema(db: SqliteDatabase) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS vector_chunks (
      id INTEGER PRIMARY KEY,
      namespace TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL, dims INTEGER NOT NULL,
      codes BLOB NOT NULL,
      UNIQUE (namespace, chunk_id)
    );
    CREATE INDEX IF NOT EXISTS vector_chunks_by_document ON vector_chunks (namespace, document_id);
    CREATE TABLE IF NOT EXISTS vector_embeddings (
      id INTEGER PRIMARY KEY REFERENCES vector_chunks (id) ON DELETE CASCADE,
      embedding BLOB NOT NULL
    );
    CREATE TABLE IF NOT EXISTS vector_namespaces (namespace TEXT PRIMARY KEY, version INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS vector_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
  immediate(db, () => {
    migrateFromSqliteVec(db);
    const format = db.prepare<[], { value: string }>("SELECT value FROM vector_settings WHERE key = 'code_format'").get()?.value;
    if (format !== CODE_FORMAT) rebuildCodes(db);
  });
}

export const asBlob = (array: Float32Array | Uint8Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

export const asFloats = (blob: Buffer) => {
  const floats = new Float32Array(blob.byteLength / 4);
  new Uint8Array(floats.buffer).set(blob);
  return floats;
};

/** Re-encodes every stored vector, in batches (a statement cannot write while another iterates). */
function rebuildCodes(db: SqliteDatabase) {
  const batch = db.prepare<[number], { id: number; dims: number; embedding: Buffer }>(
    'SELECT c.id, c.dims, e.embedding FROM vector_chunks c JOIN vector_embeddings e ON e.id = c.id WHERE c.id > ? ORDER BY c.id LIMIT 1000',
  );
  const update = db.prepare('UPDATE vector_chunks SET codes = ? WHERE id = ?');
  for (let rows = batch.all(0); rows.length > 0; rows = batch.all(rows.at(-1)!.id)) {
    for (const row of rows) update.run(asBlob(encoderFor(row.dims).encode(asFloats(row.embedding))), row.id);
  }
  db.prepare("INSERT INTO vector_settings (key, value) VALUES ('code_format', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(CODE_FORMAT);
  db.exec('UPDATE vector_namespaces SET version = version + 1');
}

/**
 * Files written before this adapter kept the vectors in sqlite-vec tables (vec0, one per width)
 * indexed by vector_rows; their floats move into vector_embeddings and the old tables go.
 */
function migrateFromSqliteVec(db: SqliteDatabase) {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'vector_rows'").get();
  if (!exists) return;
  sqliteVec.load(db);
  const widths = db.prepare<[], { dims: number }>('SELECT DISTINCT dims FROM vector_rows').all();
  const addChunk = db.prepare<[string, string, string, number, Buffer], { id: number }>(
    'INSERT INTO vector_chunks (namespace, chunk_id, document_id, dims, codes) VALUES (?, ?, ?, ?, ?) RETURNING id',
  );
  const addEmbedding = db.prepare('INSERT INTO vector_embeddings (id, embedding) VALUES (?, ?)');
  for (const { dims } of widths) {
    const rows = db
      .prepare<[number], { namespace: string; chunk_id: string; document_id: string; embedding: Buffer }>(
        `SELECT r.namespace, r.chunk_id, r.document_id, v.embedding FROM vector_rows r JOIN vectors_${dims} v ON v.rowid = r.vec_rowid WHERE r.dims = ?`,
      )
      .all(dims);
    for (const row of rows) {
      const record = encoderFor(dims).encode(asFloats(row.embedding));
      const { id } = addChunk.get(row.namespace, row.chunk_id, row.document_id, dims, asBlob(record))!;
      addEmbedding.run(id, row.embedding);
    }
    db.exec(`DROP TABLE vectors_${dims}`);
  }
  db.exec('DROP TABLE vector_rows');
  db.exec(`INSERT INTO vector_settings (key, value) VALUES ('code_format', '${CODE_FORMAT}') ON CONFLICT (key) DO NOTHING`);
}
