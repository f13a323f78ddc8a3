import { join } from 'node:path';
import { createSqliteCheckpointStore } from '../../src/adapters/sqlite/checkpoint-store.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { tempDir } from './temp.ts';

/** An embedded event log (and its checkpoints) in a fresh temp dir, as the embedded profile has them. */
export function sqliteLog(pollIntervalMs = 20) {
  const dir = tempDir();
  const db = openSqlite(join(dir.path, 'kbqa.db'));
  const store = createSqliteEventStore({ db, pollIntervalMs });
  return {
    db,
    store,
    checkpoints: createSqliteCheckpointStore(db),
    async close() {
      await store.close();
      db.close();
      dir.remove();
    },
  };
}
