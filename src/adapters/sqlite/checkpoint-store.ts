import type { CheckpointStore, ParkedEvent } from '../../ports/event-bus.ts';
import type { SqliteDatabase } from './database.ts';

export function ensureCheckpointTables(db: SqliteDatabase) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS checkpoints (group_name TEXT PRIMARY KEY, position INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS parked_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      group_name TEXT NOT NULL,
      event_id TEXT NOT NULL,
      event TEXT NOT NULL,
      error TEXT NOT NULL,
      parked_at TEXT NOT NULL,
      UNIQUE (group_name, event_id)
    );`);
}

/** Statement that moves a group's checkpoint forward only; shared with the read-model commit. */
export function checkpointWriter(db: SqliteDatabase) {
  const stmt = db.prepare(
    `INSERT INTO checkpoints (group_name, position) VALUES (?, ?)
     ON CONFLICT (group_name) DO UPDATE SET position = excluded.position WHERE excluded.position > checkpoints.position`,
  );
  return (group: string, position: bigint) => stmt.run(group, Number(position));
}

export function createSqliteCheckpointStore(db: SqliteDatabase): CheckpointStore {
  ensureCheckpointTables(db);
  const save = checkpointWriter(db);
  const load = db.prepare<[string], { position: number }>('SELECT position FROM checkpoints WHERE group_name = ?');
  const park = db.prepare(
    'INSERT OR IGNORE INTO parked_events (group_name, event_id, event, error, parked_at) VALUES (?, ?, ?, ?, ?)',
  );
  const parked = db.prepare<[string], { event: string; error: string; parked_at: string; group_name: string }>(
    'SELECT * FROM parked_events WHERE group_name = ? ORDER BY seq',
  );
  return {
    async load(group) {
      return BigInt(load.get(group)?.position ?? 0);
    },
    async save(group, position) {
      save(group, position);
    },
    async park({ group, event, error, parkedAt }) {
      park.run(group, event.id, JSON.stringify(event, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)), error, parkedAt);
    },
    async parked(group) {
      return parked.all(group).map((row): ParkedEvent => {
        const event = JSON.parse(row.event);
        return { group: row.group_name, event: { ...event, position: BigInt(event.position) }, error: row.error, parkedAt: row.parked_at };
      });
    },
  };
}
