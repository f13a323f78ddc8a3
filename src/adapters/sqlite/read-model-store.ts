import type { FindQuery, ReadModelStore, ReadModelWrite } from '../../ports/read-models.ts';
import { immediate, type SqliteDatabase, type Statement } from './database.ts';
import { checkpointWriter, ensureCheckpointTables } from './checkpoint-store.ts';

const FIELD = /^[a-z_][a-z0-9_]*$/i;


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
      ON read_models (collection, json_extract(data, '$.workspace_id'), id) WHERE data IS NOT NULL;`);
  const getStmt = db.prepare<[string, string], { data: string }>(
    'SELECT data FROM read_models WHERE collection = ? AND id = ? AND data IS NOT NULL',
  );
  // json_each takes any number of ids with one prepared statement.
  const getManyStmt = db.prepare<[string, string], { id: string; data: string }>(
    'SELECT id, data FROM read_models WHERE collection = ? AND id IN (SELECT value FROM json_each(?)) AND data IS NOT NULL',
  );
  const versioned = db.prepare<[string, string], { data: string | null; position: number }>(
    'SELECT data, position FROM read_models WHERE collection = ? AND id = ?',
  );
  const add = db.prepare(
    `INSERT INTO read_models (collection, id, data, position) VALUES (?, ?, json_object(), 0)
     ON CONFLICT (collection, id) DO NOTHING`,
  );
  const addField = db.prepare(
    `UPDATE read_models SET data = json_set(data, '$.' || ?, coalesce(json_extract(data, '$.' || ?), 0) + ?) WHERE collection = ? AND id = ?`,
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
    async getMany<T>(collection: string, ids: readonly string[]) {
      const found = new Map<string, T>();
      if (ids.length === 0) return found;
      for (const row of getManyStmt.all(collection, JSON.stringify(ids))) found.set(row.id, JSON.parse(row.data) as T);
      return found;
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
    async commit(writes: ReadModelWrite[], checkpoint) {
      immediate(db, () => {
        for (const w of writes) {
          if (w.op === 'add') {
            add.run(w.collection, w.id);
            for (const [field, amount] of Object.entries(w.fields)) {
              if (!FIELD.test(field)) throw new Error(`unsupported field name ${field}`);
              addField.run(field, field, amount, w.collection, w.id);
            }
            continue;
          }
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
