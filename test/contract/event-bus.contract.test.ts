import test from 'ava';
import { createInProcessBus } from '../../src/adapters/local/in-process-bus.ts';
import { testEventBus } from './suites/event-bus.suite.ts';
import { sqliteLog } from '../helpers/sqlite-log.ts';

testEventBus(test, 'in-process bus over sqlite', async () => {
  const { store, checkpoints, close } = sqliteLog();
  const bus = createInProcessBus({ store, checkpoints, backoff: { attempts: 3, baseMs: 1, maxMs: 5 } });
  return { store, bus, checkpoints, cleanup: close };
});
