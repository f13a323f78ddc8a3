import type { ExecutionContext, TestFn } from 'ava';
import { randomUUID } from 'node:crypto';
import type { Passage, PassageStore } from '../../../src/ports/passage-store.ts';

type Fixture = { store: PassageStore; cleanup(): Promise<void> };

const passage = (chunkId: string, documentId: string, text: string, page = 1): Passage => ({
  chunkId,
  documentId,
  index: Number(chunkId.replace(/\D/g, '') || 0),
  page,
  headingPath: ['Guide', 'Setup'],
  text,
});

/** Passages by chunk id, per namespace, replaced by upsert and removed by document or namespace. */
export function testPassageStore(test: TestFn, name: string, factory: () => Promise<Fixture>) {
  const it = (title: string, body: (t: ExecutionContext, store: PassageStore, ns: string) => Promise<void>) =>
    test(`${name} › ${title}`, async (t) => {
      const { store, cleanup } = await factory();
      try {
        await body(t, store, `kb_${randomUUID().slice(0, 8)}`);
      } finally {
        await cleanup();
      }
    });

  it('gets what was stored, field for field; unknown ids are absent', async (t, store, ns) => {
    await store.upsert(ns, [passage('c1', 'd1', 'first', 3), passage('c2', 'd1', 'second')]);
    const found = await store.get(ns, ['c1', 'c2', 'nope']);
    t.deepEqual([...found.keys()].sort(), ['c1', 'c2']);
    t.deepEqual(found.get('c1'), passage('c1', 'd1', 'first', 3));
    t.is((await store.get(ns, [])).size, 0);
    t.is((await store.get(`${ns}-other`, ['c1'])).size, 0);
  });

  it('upsert replaces; deletes by document and namespace', async (t, store, ns) => {
    await store.upsert(ns, [passage('c1', 'd1', 'old'), passage('c2', 'd2', 'kept')]);
    await store.upsert(ns, [passage('c1', 'd1', 'new')]);
    t.is((await store.get(ns, ['c1'])).get('c1')?.text, 'new');
    t.is(await store.count(ns), 2);
    await store.deleteByDocument(ns, 'd1');
    t.deepEqual([...(await store.get(ns, ['c1', 'c2'])).keys()], ['c2']);
    await store.deleteNamespace(ns);
    t.is(await store.count(ns), 0);
  });
}
