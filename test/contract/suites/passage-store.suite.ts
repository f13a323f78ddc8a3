import type { TestFn } from 'ava';
import type { Passage, PassageStore } from '../../../src/ports/passage-store.ts';
import { type Fixture, withIndex } from './search-indexes.suite.ts';


const passage = (chunkId: string, documentId: string, text: string, page = 1): Passage => ({
  chunkId,
  documentId,
  documentName: `${documentId}.pdf`,
  index: Number(chunkId.replace(/\D/g, '') || 0),
  page,
  headingPath: ['Guide', 'Setup'],
  text,
});

/** Passages by chunk id, per namespace, replaced by upsert and removed by document or namespace. */
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
}
