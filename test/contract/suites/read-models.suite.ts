import type { ExecutionContext, TestFn } from 'ava';
import { randomUUID } from 'node:crypto';
import type { CheckpointStore } from '../../../src/ports/event-bus.ts';
import type { ReadModelStore } from '../../../src/ports/read-models.ts';

export type ReadModelFixture = { readModels: ReadModelStore; checkpoints: CheckpointStore; cleanup(): Promise<void> };

/** Position-guarded documents with paging; writes and checkpoint commit together. */
export function testReadModels(test: TestFn, name: string, factory: () => Promise<ReadModelFixture>) {
  const withStore = (title: string, body: (t: ExecutionContext, f: ReadModelFixture, c: string) => Promise<void>) =>
    test(`${name} › ${title}`, async (t) => {
      const fixture = await factory();
      try {
        await body(t, fixture, `c_${randomUUID().slice(0, 8)}`);
      } finally {
        await fixture.cleanup();
      }
    });

  withStore('put, get and getVersioned', async (t, { readModels }, c) => {
    await readModels.commit([{ op: 'put', collection: c, id: 'a', doc: { id: 'a', n: 1, tags: ['x'] }, position: 5n }]);
    t.deepEqual(await readModels.get(c, 'a'), { id: 'a', n: 1, tags: ['x'] });
    t.deepEqual(await readModels.getVersioned(c, 'a'), { doc: { id: 'a', n: 1, tags: ['x'] }, position: 5n });
    t.is(await readModels.get(c, 'missing'), null);
    t.is(await readModels.getVersioned(c, 'missing'), null);
  });

  withStore('getMany reads several documents in one call; missing and deleted ones are absent', async (t, { readModels }, c) => {
    await readModels.commit([
      { op: 'put', collection: c, id: 'a', doc: { id: 'a', n: 1 }, position: 1n },
      { op: 'put', collection: c, id: 'b', doc: { id: 'b', n: 2 }, position: 2n },
      { op: 'put', collection: `${c}_other`, id: 'c', doc: { id: 'c' }, position: 3n },
    ]);
    await readModels.commit([{ op: 'delete', collection: c, id: 'b', position: 4n }]);
    const found = await readModels.getMany(c, ['a', 'b', 'c', 'missing', 'a']);
    t.deepEqual([...found.entries()], [['a', { id: 'a', n: 1 }]]);
    t.is((await readModels.getMany(c, [])).size, 0);
  });

  withStore('add creates a document at zero and adds to its fields, in the same commit as other writes', async (t, { readModels, checkpoints }, c) => {
    await readModels.commit([
      { op: 'put', collection: c, id: 'd1', doc: { id: 'd1' }, position: 3n },
      { op: 'add', collection: `${c}_totals`, id: 'k1', fields: { documents: 1, chunks: 4 } },
    ], { group: 'g', position: 3n });
    await readModels.commit([{ op: 'add', collection: `${c}_totals`, id: 'k1', fields: { documents: 1, chunks: -1, pages: 2 } }]);
    t.deepEqual(await readModels.get(`${c}_totals`, 'k1'), { documents: 2, chunks: 3, pages: 2 });
    t.is(await checkpoints.load('g'), 3n);
    await t.throwsAsync(readModels.commit([{ op: 'add', collection: `${c}_totals`, id: 'k1', fields: { 'a.b': 1 } }]));
    t.deepEqual(await readModels.get(`${c}_totals`, 'k1'), { documents: 2, chunks: 3, pages: 2 }, 'a refused commit adds nothing');
  });

  withStore('a write from an older or the same position changes nothing (replay is a no-op)', async (t, { readModels }, c) => {
    await readModels.commit([{ op: 'put', collection: c, id: 'a', doc: { id: 'a', v: 'new' }, position: 10n }]);
    await readModels.commit([{ op: 'put', collection: c, id: 'a', doc: { id: 'a', v: 'old' }, position: 9n }]);
    await readModels.commit([{ op: 'put', collection: c, id: 'a', doc: { id: 'a', v: 'same' }, position: 10n }]);
    t.deepEqual(await readModels.get(c, 'a'), { id: 'a', v: 'new' });
  });

  withStore('a delete leaves a tombstone that older writes cannot resurrect', async (t, { readModels }, c) => {
    await readModels.commit([{ op: 'put', collection: c, id: 'a', doc: { id: 'a' }, position: 1n }]);
    await readModels.commit([{ op: 'delete', collection: c, id: 'a', position: 2n }]);
    await readModels.commit([{ op: 'put', collection: c, id: 'a', doc: { id: 'a' }, position: 1n }]);
    t.is(await readModels.get(c, 'a'), null);
    t.deepEqual(await readModels.getVersioned(c, 'a'), { doc: null, position: 2n });
    t.deepEqual(await readModels.find(c), []);
  });

  withStore('find filters by fields (strings, booleans, null) and pages by id both ways', async (t, { readModels }, c) => {
    const docs = ['a1', 'a2', 'a3', 'a4', 'a5'].map((id, i) => ({
      id,
      workspace_id: i % 2 === 0 ? 'w1' : 'w2',
      active: i !== 2,
      revoked_at: i === 4 ? '2026-01-01' : null,
    }));
    await readModels.commit(docs.map((doc, i) => ({ op: 'put' as const, collection: c, id: doc.id, doc, position: BigInt(i + 1) })));
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    t.deepEqual(ids(await readModels.find(c, { where: { workspace_id: 'w1' }, order: 'asc' })), ['a1', 'a3', 'a5']);
    t.deepEqual(ids(await readModels.find(c, { where: { workspace_id: 'w1', active: true }, order: 'asc' })), ['a1', 'a5']);
    t.deepEqual(ids(await readModels.find(c, { where: { revoked_at: null }, order: 'asc' })), ['a1', 'a2', 'a3', 'a4']);
    t.deepEqual(ids(await readModels.find(c, { order: 'desc', limit: 2 })), ['a5', 'a4']);
    t.deepEqual(ids(await readModels.find(c, { order: 'desc', after: 'a4', limit: 2 })), ['a3', 'a2']);
    t.deepEqual(ids(await readModels.find(c, { order: 'asc', after: 'a4' })), ['a5']);
    t.is(await readModels.count(c, { workspace_id: 'w2' }), 2);
    t.is(await readModels.count(c), 5);
  });

  withStore('writes and checkpoint land together, or neither does', async (t, { readModels, checkpoints }, c) => {
    await readModels.commit([{ op: 'put', collection: c, id: 'ok', doc: { id: 'ok' }, position: 1n }], { group: `g${c}`, position: 1n });
    t.is(await checkpoints.load(`g${c}`), 1n);
    const unserialisable = { id: 'bad', n: 1n } as unknown as Record<string, unknown>;
    await t.throwsAsync(
      readModels.commit(
        [
          { op: 'put', collection: c, id: 'good', doc: { id: 'good' }, position: 2n },
          { op: 'put', collection: c, id: 'bad', doc: unserialisable, position: 3n },
        ],
        { group: `g${c}`, position: 3n },
      ),
    );
    t.is(await readModels.get(c, 'good'), null);
    t.is(await checkpoints.load(`g${c}`), 1n);
  });

  withStore('drop forgets the collections and the named checkpoints only', async (t, { readModels, checkpoints }, c) => {
    await readModels.commit(
      [
        { op: 'put', collection: c, id: 'a', doc: { id: 'a' }, position: 1n },
        { op: 'put', collection: `${c}_kept`, id: 'b', doc: { id: 'b' }, position: 1n },
      ],
      { group: `g${c}`, position: 1n },
    );
    await checkpoints.save(`other${c}`, 4n);
    await readModels.drop([c], [`g${c}`]);
    t.is(await readModels.get(c, 'a'), null);
    t.is(await readModels.getVersioned(c, 'a'), null);
    t.deepEqual(await readModels.get(`${c}_kept`, 'b'), { id: 'b' });
    t.is(await checkpoints.load(`g${c}`), 0n);
    t.is(await checkpoints.load(`other${c}`), 4n);
  });

  withStore('checkpoints only move forward', async (t, { checkpoints }, c) => {
    await checkpoints.save(c, 10n);
    await checkpoints.save(c, 3n);
    t.is(await checkpoints.load(c), 10n);
  });
}
