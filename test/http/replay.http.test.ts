import test from 'ava';
import { allProjections } from '../../src/capabilities/index.ts';
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
    await runtime.groups.get('projector')!.stop();
    const result = await replayReadModels({
      store: runtime.store,
      readModels: runtime.readModels,
      checkpoints: runtime.checkpoints,
      projections: allProjections,
      pageSize: 3,
      onProgress: (p) => progress.push(p.position),
    });
    t.deepEqual(await dump(), live);
    t.is(result.position, await runtime.store.headPosition());
    t.true(progress.length > 2, 'progress is reported page by page');
    t.deepEqual([...progress].sort((x, y) => (x < y ? -1 : 1)), progress);
    // Tiny bounds: flushes between pages and a session that must fall back to the store.
    await replayReadModels({ store: runtime.store, readModels: runtime.readModels,
      checkpoints: runtime.checkpoints, projections: allProjections, pageSize: 2, flushEveryEvents: 3, maxDocsInMemory: 2 });
    t.deepEqual(await dump(), live);
  } finally {
    await server.close();
  }
});

test('an interrupted replay resumes from its last flush, and per-stream positions are rebuilt with it', async (t) => {
  const server = await startServer();
  try {
    const { call, runtime } = server;
    for (const name of ['A', 'B', 'C', 'D']) await call('POST', '/v1/knowledge-bases', { json: { name } });
    const kb = (await call('POST', '/v1/knowledge-bases', { json: { name: 'E' } })).body;
    await call('PATCH', `/v1/knowledge-bases/${kb.id}`, { json: { name: 'E2' } });
    const dump = async () =>
      Object.fromEntries(await Promise.all(allProjections.map(async (p) => [p.collection, await runtime.readModels.find(p.collection, { order: 'asc' })])));
    const live = await dump();
    await runtime.groups.get('projector')!.stop();
    const options = { store: runtime.store, readModels: runtime.readModels, checkpoints: runtime.checkpoints, projections: allProjections, trackStreams: true, pageSize: 2, flushEveryEvents: 2 };
    let pages = 0;
    const interrupted = replayReadModels({
      ...options,
      onProgress: () => {
        if (++pages === 4) throw new Error('power cut');
      },
    });
    await t.throwsAsync(interrupted, { message: 'power cut' });
    const resumed = await replayReadModels(options);
    t.true(resumed.resumedFrom > 0n, 'the second replay starts where the first one flushed');
    t.true(resumed.events < Number(resumed.head), 'and reads only the rest of the log');
    t.deepEqual(await dump(), live);
    const kbStream = await runtime.store.readStream(`knowledge_base-${kb.id}`);
    t.is((await runtime.readModels.getVersioned('stream_positions', `knowledge_base-${kb.id}`))?.position, kbStream.at(-1)!.position);
    const fresh = await replayReadModels(options);
    t.is(fresh.resumedFrom, 0n, 'a finished replay leaves nothing to resume');
  } finally {
    await server.close();
  }
});
