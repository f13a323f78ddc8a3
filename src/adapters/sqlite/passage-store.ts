import type { Box } from '../../domain/document/box.ts';
import type { Passage, PassageStore } from '../../ports/passage-store.ts';
import { immediate, type SqliteDatabase } from './database.ts';

type Row = {
  chunk_id: string;
  document_id: string;
  document_name: string | null;
  chunk_index: number;
  page: number;
  heading_path: string;
  text: string;
  char_start: number | null;
  char_end: number | null;
  token_count: number | null;
  boxes: string | null;
  first_version: number | null;
  last_version: number | null;
};

const COLUMNS = 'chunk_id, document_id, document_name, chunk_index, page, heading_path, text, char_start, char_end, token_count, boxes, first_version, last_version';

/** Columns added after the first passages were written: NULL in the rows written before (see PassagePlacement, Passage.documentName). */
const ADDED_COLUMNS = { document_name: 'TEXT', char_start: 'INTEGER', char_end: 'INTEGER', token_count: 'INTEGER', boxes: 'TEXT', first_version: 'INTEGER', last_version: 'INTEGER' };

/** One row per chunk, keyed by (namespace, chunk id); a lookup of the top k is one indexed query. */
export function createSqlitePassageStore(db: SqliteDatabase): PassageStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS passages (
      namespace TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL, document_name TEXT,
      chunk_index INTEGER NOT NULL, page INTEGER NOT NULL, heading_path TEXT NOT NULL, text TEXT NOT NULL,
      PRIMARY KEY (namespace, chunk_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS passages_by_document ON passages (namespace, document_id);`);
  addMissingColumns(db, 'passages', ADDED_COLUMNS);
  db.exec(`
    CREATE INDEX IF NOT EXISTS passages_in_order ON passages (namespace, document_id, chunk_index);
    CREATE INDEX IF NOT EXISTS passages_unplaced ON passages (namespace, document_id) WHERE token_count IS NULL;`);
  const put = db.prepare(`INSERT OR REPLACE INTO passages (namespace, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // json_each takes any number of ids with one prepared statement.
  const select = db.prepare<[string, string], Row>(`SELECT ${COLUMNS} FROM passages WHERE namespace = ? AND chunk_id IN (SELECT value FROM json_each(?))`);
  const inOrder = db.prepare<[string, string, number, number], Row>(
    `SELECT ${COLUMNS} FROM passages WHERE namespace = ? AND document_id = ? AND chunk_index > ? ORDER BY chunk_index LIMIT ?`,
  );
  const unplaced = db.prepare<[string, string, number], { namespace: string; document_id: string }>(
    'SELECT DISTINCT namespace, document_id FROM passages WHERE token_count IS NULL AND (namespace, document_id) > (?, ?) ORDER BY namespace, document_id LIMIT ?',
  );
  const place = db.prepare('UPDATE passages SET char_start = ?, char_end = ?, token_count = ? WHERE namespace = ? AND chunk_id = ?');
  const dropDocument = db.prepare('DELETE FROM passages WHERE namespace = ? AND document_id = ?');
  const dropNamespace = db.prepare('DELETE FROM passages WHERE namespace = ?');
  const dropChunks = db.prepare('DELETE FROM passages WHERE namespace = ? AND chunk_id IN (SELECT value FROM json_each(?))');
  const countRows = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM passages WHERE namespace = ?');

  return {
    async upsert(namespace, passages) {
      immediate(db, () => {
        for (const p of passages) {
          put.run(namespace, p.chunkId, p.documentId, p.documentName, p.index, p.page, JSON.stringify(p.headingPath), p.text, p.charStart, p.charEnd, p.tokenCount, p.boxes ? JSON.stringify(p.boxes) : null, p.firstVersion ?? null, p.lastVersion ?? null);
        }
      });
    },
    async get(namespace, chunkIds) {
      const found = new Map<string, Passage>();
      if (chunkIds.length === 0) return found;
      for (const row of select.all(namespace, JSON.stringify(chunkIds))) found.set(row.chunk_id, toPassage(row));
      return found;
    },
    async listByDocument(namespace, documentId, { after = -1, limit }) {
      return inOrder.all(namespace, documentId, after, limit).map(toPassage);
    },
    async unplaced(after, limit) {
      return unplaced.all(after?.namespace ?? '', after?.documentId ?? '', limit).map((r) => ({ namespace: r.namespace, documentId: r.document_id }));
    },
    async place(namespace, placements) {
      immediate(db, () => {
        for (const p of placements) place.run(p.charStart, p.charEnd, p.tokenCount, namespace, p.chunkId);
      });
    },
    async deleteByDocument(namespace, documentId) {
      dropDocument.run(namespace, documentId);
    },
    async deleteChunks(namespace, chunkIds) {
      if (chunkIds.length > 0) dropChunks.run(namespace, JSON.stringify(chunkIds));
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

function toPassage(row: Row): Passage {
  return {
    chunkId: row.chunk_id,
    documentId: row.document_id,
    documentName: row.document_name,
    index: row.chunk_index,
    page: row.page,
    headingPath: JSON.parse(row.heading_path) as string[],
    text: row.text,
    charStart: row.char_start ?? 0,
    charEnd: row.char_end ?? 0,
    tokenCount: row.token_count ?? 0,
    ...(row.boxes && { boxes: JSON.parse(row.boxes) as Box[] }),
    ...(row.first_version !== null && { firstVersion: row.first_version }),
    ...(row.last_version !== null && { lastVersion: row.last_version }),
  };
}

/** A table created by an earlier version gets the columns added since, by name and SQL type (NULL in its old rows). */
function addMissingColumns(db: SqliteDatabase, table: string, columns: Record<string, string>) {
  const present = new Set(db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]);
  for (const [column, type] of Object.entries(columns)) if (!present.has(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
}
