import type { FindQuery, GroupTotals, ReadModelStore, ReadModelWrite } from '../../ports/read-models.ts';
import { immediate, type SqliteDatabase, type Statement } from './database.ts';
import { checkpointWriter, ensureCheckpointTables } from './checkpoint-store.ts';

const FIELD = /^[a-z_][a-z0-9_]*$/i;

/** The fields with an expression index, and its name. */
const INDEXED_FIELDS: Record<string, string> = { workspace_id: 'read_models_by_workspace', knowledge_base_id: 'read_models_by_knowledge_base_totals' };

/** Read models as JSON documents in one table; deletes leave a tombstone so older events cannot resurrect them. */
export function createSqliteReadModelStore(db: SqliteDatabase): ReadModelStore {
  ensureCheckpointTables(db);
  db.exec(`
    CREATE TABLE IF NOT EXISTS read_models (
      collection TEXT NOT NULL,
      id TEXT NOT NULL,
      data TEXT,
      position INTEGER NOT NULL,
      PRIMARY KEY (collection, id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS read_models_by_workspace
      ON read_models (collection, json_extract(data, '$.workspace_id'), id) WHERE data IS NOT NULL;
    DROP INDEX IF EXISTS read_models_by_knowledge_base;
    -- Covers a knowledge base's document totals (status, chunk count) without reading any document.
    CREATE INDEX IF NOT EXISTS read_models_by_knowledge_base_totals
      ON read_models (collection, json_extract(data, '$.knowledge_base_id'), json_extract(data, '$.status'), json_extract(data, '$.chunk_count'))
      WHERE data IS NOT NULL;`);
  const getStmt = db.prepare<[string, string], { data: string }>(
    'SELECT data FROM read_models WHERE collection = ? AND id = ? AND data IS NOT NULL',
  );
  const versioned = db.prepare<[string, string], { data: string | null; position: number }>(
    'SELECT data, position FROM read_models WHERE collection = ? AND id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO read_models (collection, id, data, position) VALUES (?, ?, ?, ?)
     ON CONFLICT (collection, id) DO UPDATE SET data = excluded.data, position = excluded.position
     WHERE excluded.position > read_models.position`,
  );
  const saveCheckpoint = checkpointWriter(db);
  const statements = new Map<string, Statement>();
  const prepared = (sql: string): Statement => {
    let stmt = statements.get(sql);
    if (!stmt) statements.set(sql, (stmt = db.prepare(sql)));
    return stmt;
  };

  const whereClause = (collection: string, query: FindQuery, withCursor: boolean) => {
    const clauses = ['collection = ?', 'data IS NOT NULL'];
    const params: (string | number)[] = [collection];
    for (const [field, value] of Object.entries(query.where ?? {})) {
      if (!FIELD.test(field)) throw new Error(`unsupported field name ${field}`);
      if (value === null) clauses.push(`json_extract(data, '$.${field}') IS NULL`);
      else {
        clauses.push(`json_extract(data, '$.${field}') = ?`);
        params.push(typeof value === 'boolean' ? Number(value) : value);
      }
    }
    if (withCursor && query.after !== undefined) {
      clauses.push(query.order === 'asc' ? 'id > ?' : 'id < ?');
      params.push(query.after);
    }
    return { sql: clauses.join(' AND '), params };
  };

  return {
    async get<T>(collection: string, id: string) {
      const row = getStmt.get(collection, id);
      return row ? (JSON.parse(row.data) as T) : null;
    },
    async getVersioned<T>(collection: string, id: string) {
      const row = versioned.get(collection, id);
      if (!row) return null;
      return { doc: row.data === null ? null : (JSON.parse(row.data) as T), position: BigInt(row.position) };
    },
    async find<T>(collection: string, query: FindQuery = {}) {
      const { sql, params } = whereClause(collection, query, true);
      const order = query.order === 'asc' ? 'ASC' : 'DESC';
      const rows = prepared(`SELECT data FROM read_models WHERE ${sql} ORDER BY id ${order} LIMIT ?`).all(
        ...params,
        query.limit ?? -1,
      ) as { data: string }[];
      return rows.map((row) => JSON.parse(row.data) as T);
    },
    async count(collection, where) {
      const { sql, params } = whereClause(collection, { where }, false);
      return (prepared(`SELECT count(*) AS n FROM read_models WHERE ${sql}`).get(...params) as { n: number }).n;
    },
    async totals(collection, groupBy, values, sum, where) {
      if (![groupBy, ...sum].every((f) => FIELD.test(f))) throw new Error(`unsupported field name among ${[groupBy, ...sum].join(', ')}`);
      const result = new Map<string, GroupTotals>();
      if (values.length === 0) return result;
      const sums = sum.map((f, i) => `, total(json_extract(data, '$.${f}')) AS s${i}`).join('');
      const filter = whereClause(collection, { where }, false);
      // Without statistics SQLite scans the whole collection by primary key instead (100 ms at 31k documents).
      const hint = INDEXED_FIELDS[groupBy] ? ` INDEXED BY ${INDEXED_FIELDS[groupBy]}` : '';
      const sql = `SELECT json_extract(data, '$.${groupBy}') AS g, count(*) AS n${sums} FROM read_models${hint}
        WHERE ${filter.sql} AND json_extract(data, '$.${groupBy}') IN (${values.map(() => '?').join(',')}) GROUP BY g`;
      for (const row of prepared(sql).all(...filter.params, ...values) as Record<string, number | string>[]) {
        result.set(String(row.g), { count: Number(row.n), sums: Object.fromEntries(sum.map((f, i) => [f, Number(row[`s${i}`])])) });
      }
      return result;
    },
    async commit(writes: ReadModelWrite[], checkpoint) {
      immediate(db, () => {
        for (const w of writes) {
          upsert.run(w.collection, w.id, w.op === 'put' ? JSON.stringify(w.doc) : null, Number(w.position));
        }
        if (checkpoint) saveCheckpoint(checkpoint.group, checkpoint.position);
      });
    },
    async drop(collections, groups = []) {
      const del = db.prepare('DELETE FROM read_models WHERE collection = ?');
      const reset = db.prepare('DELETE FROM checkpoints WHERE group_name = ?');
      immediate(db, () => {
        collections.forEach((c) => del.run(c));
        groups.forEach((g) => reset.run(g));
      });
    },
    async ping() {
      getStmt.get('', '');
    },
    async close() {},
  };
}
