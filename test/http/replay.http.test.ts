import test from 'ava';
import { allProjections } from '../../projections/index.ts';
import { replayReadModels } from '../../src/app/replay.ts';
import { startServer } from '../helpers/server.ts';

test('replay drops and rebuilds every read model to exactly what the live projector built', async (t) => {
  const server = await startServer();
  try {
    const { call, runtime } = server;
    const a = (await call('POST', '/v1/knowledge-bases', { json: { name: 'A' } })).body;
    await call('POST', '/v1/knowledge-bases', { json: { name: 'B', settings: { top_k: 3 } } });
    await call('PATCH', `/v1/knowledge-bases/${a.id}`, { json: { settings: { rerank: { enabled: true } } } });
    const key = (await call('POST', '/v1/api-keys', { json: { name: 'k' } })).body;
    await call('DELETE', `/v1/api-keys/${key.id}`);
    const dump = async () =>
      Object.fromEntries(
        await Promise.all(allProjections.map(async (p) => [p.collection, await runtime.readModels.find(p.collection, { order: 'asc' })])),
      );
    const live = await dump();
    const progress: bigint[] = [];
    await runtime.ctx.projector.stop();
    const result = await replayReadModels({
      store: runtime.store,
      readModels: runtime.readModels,
      projections: allProjections,
      pageSize: 3,
      onProgress: (p) => progress.push(p.position),
    });
    t.deepEqual(await dump(), live);
    t.is(result.position, await runtime.store.headPosition());
    t.true(progress.length > 2, 'progress is reported page by page');
    t.deepEqual([...progress].sort((x, y) => (x < y ? -1 : 1)), progress);
    // Tiny bounds: flushes between pages and a session that must fall back to the store.
    await replayReadModels({ store: runtime.store, readModels: runtime.readModels, projections: allProjections, pageSize: 2, flushEveryEvents: 3, maxDocsInMemory: 2 });
    t.deepEqual(await dump(), live);
  } finally {
    await server.close();
  }
});
