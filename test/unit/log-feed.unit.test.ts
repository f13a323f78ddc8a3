import test from 'ava';
import { allProjections } from '../../src/capabilities/index.ts';
import { createInProcessBus } from '../../src/adapters/local/in-process-bus.ts';
import { createSqliteReadModelStore } from '../../src/adapters/sqlite/read-model-store.ts';
import { streamPositionWatch } from '../../src/app/projection-watch.ts';
import { projectorGroup } from '../../src/app/projector.ts';
import { ANNOUNCED_TYPES } from '../../src/composition/announce.ts';
import { followLog } from '../../src/composition/log-feed.ts';
import type { RecordedEvent } from '../../src/ports/event-store.ts';
import { eventually } from '../helpers/temp.ts';
import { sqliteLog } from '../helpers/sqlite-log.ts';

test('an API apart from the projector announces an event only once its read model shows it', async (t) => {
  const log = sqliteLog(10);
  const { store, checkpoints } = log;
  const readModels = createSqliteReadModelStore(log.db);
  const bus = createInProcessBus({ store, checkpoints });
  const projections = streamPositionWatch(readModels, 2);
  const announced: { type: string; projected: unknown }[] = [];
  const following = await followLog({
    store,
    projections,
    waitMs: 5000,
    onError: (error) => t.fail(String(error)),
    announce: (batch: readonly RecordedEvent[]) => {
      // Synchronous check at the moment of the announcement, as a waiting request would read.
      for (const e of batch) announced.push({ type: e.type, projected: e.streamId });
    },
  });
  try {
    const id = 'wf_run_1';
    await store.append(`workflow_run-${id}`, [{ id: crypto.randomUUID(), type: 'WorkflowRunRequested', data: { run_id: id, workflow_id: 'wf', workflow_version: 1, workspace_id: 'w', inputs: {}, response_mode: 'async', requested_at: '2026-01-01T00:00:00.000Z' }, metadata: { schemaVersion: 1 } }], 'no_stream');
    await store.append('chat-1', [{ id: crypto.randomUUID(), type: 'ChatCompleted', data: {}, metadata: { schemaVersion: 1 } }], 'no_stream');
    await new Promise((resolve) => setTimeout(resolve, 100));
    t.deepEqual(announced, [], 'nothing is announced before the projector applied it');
    const projector = await bus.subscribe(projectorGroup(allProjections, readModels, { trackStreams: true }));
    await eventually(() => announced.length === 1, { timeoutMs: 5000 });
    t.deepEqual(announced, [{ type: 'WorkflowRunRequested', projected: `workflow_run-${id}` }], 'only the types an API announces');
    t.truthy(await readModels.get('workflow_runs', id), 'and by then a reader finds the run');
    // The same events the in-process projector's hook announces: every document lifecycle and run event.
    t.true(['DocumentParsed', 'DocumentIndexed', 'NodeRunSucceeded', 'ApiKeyRevoked'].every((type) => ANNOUNCED_TYPES.has(type)));
    t.false(ANNOUNCED_TYPES.has('ChatCompleted'));
    t.false(ANNOUNCED_TYPES.has('DocumentChunksExtracted'), 'a document event stream reads the chunk batches of a parse itself');
    await projector.stop();
  } finally {
    await following.stop();
    await bus.close();
    await log.close();
  }
});
