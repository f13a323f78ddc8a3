import test from 'ava';
import { join } from 'node:path';
import { createInProcessBus } from '../../src/adapters/local/in-process-bus.ts';
import { createSqliteCheckpointStore } from '../../src/adapters/sqlite/checkpoint-store.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteEventStore } from '../../src/adapters/sqlite/event-store.ts';
import { tempDir } from '../helpers/temp.ts';
import { testEventBus } from './suites/event-bus.suite.ts';

testEventBus(test, 'in-process bus over sqlite', async () => {
  const dir = tempDir();
  const db = openSqlite(join(dir.path, 'kbqa.db'));
  const store = createSqliteEventStore({ db, pollIntervalMs: 20 });
  const checkpoints = createSqliteCheckpointStore(db);
  const bus = createInProcessBus({ store, checkpoints, backoff: { attempts: 3, baseMs: 1, maxMs: 5 } });
  return {
    store,
    bus,
    checkpoints,
    cleanup: async () => {
      await store.close();
      db.close();
      dir.remove();
    },
  };
});
