import type { TestFn } from 'ava';
import type { Passage, PassageStore } from '../../../src/ports/passage-store.ts';
import { type Fixture, withIndex } from './search-indexes.suite.ts';

const passage = (chunkId: string, documentId: string, text: string, page = 1): Passage => {
  const index = Number(chunkId.replace(/\D/g, '') || 0);
  return { chunkId, documentId, documentName: `${documentId}.pdf`, index, page, headingPath: ['Guide', 'Setup'], text, charStart: index * 10, charEnd: index * 10 + text.length, tokenCount: text.length };
};

/** Passages by chunk id, per namespace, replaced by upsert, listed in order by document, and removed by document or namespace. */
export function testPassageStore(test: TestFn, name: string, factory: () => Promise<Fixture<PassageStore>>) {
  const it = withIndex(test, name, factory);

  it('gets what was stored, field for field; unknown ids are absent', async (t, store, ns) => {
    await store.upsert(ns, [passage('c1', 'd1', 'first', 3), passage('c2', 'd1', 'second')]);
    const found = await store.get(ns, ['c1', 'c2', 'nope']);
    t.deepEqual([...found.keys()].sort(), ['c1', 'c2']);
    t.deepEqual(found.get('c1'), passage('c1', 'd1', 'first', 3));
    t.is((await store.get(ns, [])).size, 0);
    t.is((await store.get(`${ns}-other`, ['c1'])).size, 0);
  });

  it('keeps a passage’s line boxes; a passage without any reads without the field', async (t, store, ns) => {
    const boxes = [
      { x0: 0.1, y0: 0.2, x1: 0.9, y1: 0.22, start: 0 },
      { x0: 0.1, y0: 0.23, x1: 0.5, y1: 0.25, start: 40 },
    ];
    await store.upsert(ns, [{ ...passage('c1', 'd1', 'boxed'), boxes }, passage('c2', 'd1', 'plain')]);
    const found = await store.get(ns, ['c1', 'c2']);
    t.deepEqual(found.get('c1')?.boxes, boxes);
    t.false('boxes' in found.get('c2')!);
    t.deepEqual((await store.listByDocument(ns, 'd1', { limit: 5 }))[0]?.boxes, boxes);
  });

  it('keeps the document name; a passage stored without one reads as null', async (t, store, ns) => {
    await store.upsert(ns, [passage('c1', 'd1', 'named'), { ...passage('c2', 'd2', 'unnamed'), documentName: null }]);
    const found = await store.get(ns, ['c1', 'c2']);
    t.is(found.get('c1')?.documentName, 'd1.pdf');
    t.is(found.get('c2')?.documentName, null);
    await store.upsert(ns, [passage('c2', 'd2', 'named now')]);
    t.is((await store.get(ns, ['c2'])).get('c2')?.documentName, 'd2.pdf', 'rewriting a passage fills its name');
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

  it("lists a document's passages in chunk order, paged by the index after which to start", async (t, store, ns) => {
    // Written out of order and across batches, as an indexer that retries might.
    await store.upsert(ns, [passage('c12', 'd1', 'twelve'), passage('c3', 'd1', 'three'), passage('c5', 'd2', 'other document')]);
    await store.upsert(ns, [passage('c0', 'd1', 'zero'), passage('c7', 'd1', 'seven')]);
    await store.upsert(`${ns}-other`, [passage('c1', 'd1', 'other namespace')]);
    const indexes = (list: Passage[]) => list.map((p) => p.index);
    t.deepEqual(indexes(await store.listByDocument(ns, 'd1', { limit: 10 })), [0, 3, 7, 12]);
    t.deepEqual(indexes(await store.listByDocument(ns, 'd1', { limit: 2 })), [0, 3]);
    t.deepEqual(indexes(await store.listByDocument(ns, 'd1', { after: 3, limit: 2 })), [7, 12]);
    t.deepEqual(indexes(await store.listByDocument(ns, 'd1', { after: 12, limit: 2 })), []);
    t.deepEqual(await store.listByDocument(ns, 'd1', { after: 6, limit: 1 }), [passage('c7', 'd1', 'seven')]);
    t.deepEqual(await store.listByDocument(ns, 'nope', { limit: 10 }), []);
  });

  it('place sets placement on passages that exist and leaves other ids alone; placed passages are not unplaced', async (t, store, ns) => {
    await store.upsert(ns, [passage('c1', 'd1', 'first')]);
    await store.place(ns, [{ chunkId: 'c1', charStart: 5, charEnd: 9, tokenCount: 2 }, { chunkId: 'c404', charStart: 0, charEnd: 1, tokenCount: 1 }]);
    await store.place(ns, []);
    t.deepEqual((await store.get(ns, ['c1'])).get('c1'), { ...passage('c1', 'd1', 'first'), charStart: 5, charEnd: 9, tokenCount: 2 });
    t.deepEqual([...(await store.get(ns, ['c404'])).keys()], []);
    t.false((await store.unplaced(null, 1000)).some((d) => d.namespace === ns));
  });
}
