import type { ExecutionContext, TestFn } from 'ava';
import { randomUUID } from 'node:crypto';
import type { EntityGraph } from '../../../src/ports/entity-graph.ts';
import type { KeywordIndex } from '../../../src/ports/keyword-index.ts';
import type { VectorIndex } from '../../../src/ports/vector-index.ts';

export type Fixture<T> = { index: T; cleanup(): Promise<void> };

/** Each test gets a fresh index from `factory` and a namespace of its own. */
export const withIndex = <T>(test: TestFn, name: string, factory: () => Promise<Fixture<T>>) =>
  (title: string, body: (t: ExecutionContext, index: T, ns: string) => Promise<void>) =>
    test(`${name} › ${title}`, async (t) => {
      const { index, cleanup } = await factory();
      try {
        await body(t, index, `kb_${randomUUID().slice(0, 8)}`);
      } finally {
        await cleanup();
      }
    });

const unit = (values: number[]) => {
  const v = Float32Array.from(values);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

/** k-NN by cosine, per namespace, filterable by document, with idempotent upserts and deletes. */
export function testVectorIndex(test: TestFn, name: string, factory: () => Promise<Fixture<VectorIndex>>) {
  const it = withIndex(test, name, factory);
  it('nearest first, scores are cosine similarities', async (t, index, ns) => {
    await index.upsert(ns, [
      { id: 'x', documentId: 'd1', values: unit([1, 0, 0, 0]) },
      { id: 'xy', documentId: 'd1', values: unit([1, 1, 0, 0]) },
      { id: 'z', documentId: 'd2', values: unit([0, 0, 1, 0]) },
    ]);
    const matches = await index.query(ns, unit([1, 0.1, 0, 0]), 3);
    t.deepEqual(matches.map((m) => m.id), ['x', 'xy', 'z']);
    t.true(Math.abs(matches[0]!.score - 0.995) < 0.01);
    t.true(Math.abs(matches[2]!.score) < 0.01);
    t.is(matches[0]!.documentId, 'd1');
  });
  it('namespaces are isolated; filters by document', async (t, index, ns) => {
    await index.upsert(ns, [{ id: 'a', documentId: 'd1', values: unit([1, 0, 0, 0]) }, { id: 'b', documentId: 'd2', values: unit([1, 0.2, 0, 0]) }]);
    await index.upsert(`${ns}-other`, [{ id: 'c', documentId: 'd3', values: unit([1, 0, 0, 0]) }]);
    t.deepEqual((await index.query(ns, unit([1, 0, 0, 0]), 10)).map((m) => m.id), ['a', 'b']);
    t.deepEqual((await index.query(ns, unit([1, 0, 0, 0]), 10, { documentIds: ['d2'] })).map((m) => m.id), ['b']);
    t.deepEqual(await index.query(ns, unit([1, 0, 0, 0]), 10, { documentIds: [] }), []);
    await index.deleteNamespace(`${ns}-other`);
  });
  it('upsert replaces; delete by document and by namespace', async (t, index, ns) => {
    await index.upsert(ns, [{ id: 'a', documentId: 'd1', values: unit([1, 0, 0, 0]) }, { id: 'b', documentId: 'd2', values: unit([0, 1, 0, 0]) }]);
    await index.upsert(ns, [{ id: 'a', documentId: 'd1', values: unit([0, 1, 0, 0]) }]);
    t.is(await index.count(ns), 2);
    t.deepEqual((await index.query(ns, unit([0, 1, 0, 0]), 1)).map((m) => m.score > 0.99), [true]);
    await index.deleteByDocument(ns, 'd1');
    t.deepEqual((await index.query(ns, unit([0, 1, 0, 0]), 10)).map((m) => m.id), ['b']);
    await index.deleteNamespace(ns);
    t.is(await index.count(ns), 0);
    t.deepEqual(await index.query(ns, unit([0, 1, 0, 0]), 10), []);
  });
  it('a filter finds its documents’ best matches even below thousands of better ones', async (t, index, ns) => {
    // Wide enough and many enough that an approximate index has to shortlist: a filter applied
    // only to the shortlist would come back empty.
    const near = (i: number) => unit(Array.from({ length: 64 }, (_, j) => (j === 0 ? 10 : Math.sin(i * 7 + j))));
    for (let i = 0; i < 3000; i += 500) {
      await index.upsert(ns, Array.from({ length: 500 }, (_, k) => ({ id: `n${i + k}`, documentId: `near${(i + k) % 50}`, values: near(i + k) })));
    }
    const query = unit(Array.from({ length: 64 }, (_, j) => (j === 0 ? 1 : 0)));
    await index.upsert(ns, [
      { id: 'far', documentId: 'd-far', values: unit(Array.from({ length: 64 }, (_, j) => (j === 0 ? -1 : Math.cos(j)))) },
      { id: 'farther', documentId: 'd-far', values: unit(Array.from({ length: 64 }, (_, j) => (j === 0 ? -30 : Math.cos(j)))) },
    ]);
    const matches = await index.query(ns, query, 5, { documentIds: ['d-far'] });
    t.deepEqual(matches.map((m) => m.id), ['far', 'farther']);
    t.true(matches[1]!.score < -0.9);
    t.is((await index.query(ns, query, 1))[0]!.documentId.startsWith('near'), true);
  });
}

/** BM25 over text per namespace: relevant first, stemmed, scored 0..1, safe against any query. */
export function testKeywordIndex(test: TestFn, name: string, factory: () => Promise<Fixture<KeywordIndex>>) {
  const it = withIndex(test, name, factory);
  it('ranks by BM25 with stemming, and ignores query operators', async (t, index, ns) => {
    await index.upsert(ns, [
      { id: 'c1', documentId: 'd1', text: 'Vitamin D deficiency is associated with bone fractures in elderly patients.' },
      { id: 'c2', documentId: 'd1', text: 'Bone density and fracturing: a survey of calcium intake.' },
      { id: 'c3', documentId: 'd2', text: 'Solar panels convert sunlight into electricity.' },
    ]);
    const matches = await index.query(ns, 'vitamin D fractures', 10);
    t.is(matches[0]!.id, 'c1');
    t.true(matches.some((m) => m.id === 'c2'), 'stemming: fractures ~ fracturing');
    t.false(matches.some((m) => m.id === 'c3'));
    t.true(matches[0]!.score > 0);
    t.deepEqual(await index.query(ns, 'NEAR( "bone" OR AND ) * text:', 10).then((m) => m.length > 0), true);
    t.deepEqual(await index.query(ns, '   ', 10), []);
  });
  it('scores are in 0..1 and say how much of the query a chunk covers', async (t, index, ns) => {
    await index.upsert(ns, [
      { id: 'all', documentId: 'd1', text: 'Statins lower cholesterol and reduce cardiovascular mortality in older adults.' },
      { id: 'some', documentId: 'd2', text: 'Cholesterol is carried in the blood by lipoproteins.' },
      { id: 'none', documentId: 'd3', text: 'Glaciers retreat as the climate warms.' },
    ]);
    const matches = await index.query(ns, 'statins reduce cholesterol mortality', 10);
    t.deepEqual(matches.map((m) => m.id), ['all', 'some']);
    t.true(matches[0]!.score > matches[1]!.score, 'covering every term beats covering one');
    for (const m of matches) t.true(m.score > 0 && m.score <= 1, `score ${m.score} within 0..1`);
    // A query term no chunk has still counts against the best reachable score.
    const withUnknown = await index.query(ns, 'statins reduce cholesterol mortality zyxwvut', 10);
    t.true(withUnknown[0]!.score < matches[0]!.score);
    t.deepEqual(await index.query(ns, 'zyxwvut qqqqq', 10), [], 'every query term missing: nothing');
    t.deepEqual(await index.query(ns, 'statins', 0), []);
  });
  it('hostile queries never throw', async (t, index, ns) => {
    await index.upsert(ns, [
      { id: 'en', documentId: 'd1', text: 'The quick brown fox jumps over the lazy dog 🦊.' },
      { id: 'zh', documentId: 'd2', text: '维生素D缺乏与骨折有关。' },
      { id: 'fr', documentId: 'd3', text: 'Le café est très chaud.' },
    ]);
    const hostile = [
      '"unbalanced quote',
      'fox" OR "dog',
      'NEAR(fox dog, 2) AND NOT {text} : ^fox * - + ( ) [ ]',
      "'; DROP TABLE keyword_chunks; --",
      'the of and is it to',
      '🦊🦊🦊 🐕',
      '\u0000\uffff\ud800',
      'x'.repeat(10_000),
      Array.from({ length: 2_000 }, (_, i) => `w${i}`).join(' '),
      '骨折',
      'CAFÉ',
    ];
    for (const q of hostile) {
      const matches = await index.query(ns, q, 10);
      t.true(Array.isArray(matches), q.slice(0, 40));
      for (const m of matches) t.true(m.score > 0 && m.score <= 1);
    }
    t.deepEqual(await index.query(ns, 'the of and is it to', 10), [], 'only stop words: nothing');
    t.is((await index.query(ns, '骨折', 10))[0]?.id, 'zh', 'CJK text is searchable without spaces');
    t.is((await index.query(ns, 'CAFÉ', 10))[0]?.id, 'fr', 'case and accents folded');
    t.is((await index.query(ns, 'fox" OR "dog', 10))[0]?.id, 'en');
  });
  it('namespaces are isolated; filter, replace and delete', async (t, index, ns) => {
    await index.upsert(ns, [{ id: 'c1', documentId: 'd1', text: 'alpha beta' }, { id: 'c2', documentId: 'd2', text: 'alpha gamma' }]);
    await index.upsert(`${ns}-o`, [{ id: 'c9', documentId: 'd9', text: 'alpha' }]);
    t.deepEqual((await index.query(ns, 'alpha', 10)).map((m) => m.id).sort(), ['c1', 'c2']);
    t.deepEqual((await index.query(ns, 'alpha', 10, { documentIds: ['d2'] })).map((m) => m.id), ['c2']);
    t.deepEqual(await index.query(ns, 'alpha', 10, { documentIds: [] }), [], 'an empty filter allows nothing');
    t.deepEqual(await index.query(ns, 'alpha', 10, { documentIds: ['nope'] }), []);
    await index.upsert(ns, [{ id: 'c1', documentId: 'd1', text: 'delta' }]);
    t.deepEqual((await index.query(ns, 'alpha', 10)).map((m) => m.id), ['c2']);
    t.deepEqual((await index.query(ns, 'delta', 10)).map((m) => m.id), ['c1']);
    t.is(await index.count(ns), 2);
    await index.deleteByDocument(ns, 'd2');
    t.deepEqual(await index.query(ns, 'alpha', 10), []);
    t.is(await index.count(ns), 1);
    await index.deleteNamespace(ns);
    t.is(await index.count(ns), 0);
    t.deepEqual(await index.query(ns, 'delta', 10), []);
    t.is((await index.query(`${ns}-o`, 'alpha', 10)).length, 1);
    await index.deleteNamespace(`${ns}-o`);
    await index.ping();
  });
  it('termStats: the query’s distinct terms with their document frequencies', async (t, index, ns) => {
    t.deepEqual(await index.termStats(ns, 'vitamin', {}), { documents: 0, terms: [{ term: 'vitamin', word: 'vitamin', documentFrequency: 0 }] });
    await index.upsert(ns, [
      { id: 'c1', documentId: 'd1', text: 'Vitamin D deficiency and fractures.' },
      { id: 'c2', documentId: 'd1', text: 'Fracturing bones in the elderly.' },
      { id: 'c3', documentId: 'd2', text: 'Solar panels.' },
    ]);
    const stats = await index.termStats(ns, 'The fractures, FRACTURE and vitamins of zyxwvut');
    t.is(stats.documents, 3);
    t.deepEqual(stats.terms, [
      { term: 'fractur', word: 'fractures', documentFrequency: 2 },
      { term: 'vitamin', word: 'vitamins', documentFrequency: 1 },
      { term: 'zyxwvut', word: 'zyxwvut', documentFrequency: 0 },
    ]);
    await index.deleteByDocument(ns, 'd1');
    t.deepEqual(await index.termStats(ns, 'fracture'), { documents: 1, terms: [{ term: 'fractur', word: 'fracture', documentFrequency: 0 }] });
    t.deepEqual(await index.termStats(ns, 'the of'), { documents: 1, terms: [] });
  });
  it('a pinned language analyses chunks and queries alike', async (t, index, ns) => {
    await index.upsert(ns, [{ id: 'de', documentId: 'd1', text: 'Die Häuser der Stadt' }], { language: 'de' });
    t.deepEqual((await index.query(ns, 'Haus', 10, undefined, { language: 'de' })).map((m) => m.id), ['de']);
    t.deepEqual((await index.termStats(ns, 'die Häuser', { language: 'de' })).terms.map((x) => [x.term, x.documentFrequency]), [['haus', 1]]);
  });
  it('a fresh index has nothing stale', async (t, index, ns) => {
    await index.upsert(ns, [{ id: 'c1', documentId: 'd1', text: 'alpha' }]);
    t.deepEqual(await index.stale(null, 10), []);
    await index.markAnalyzed();
    t.deepEqual(await index.stale(null, 10), []);
  });
}

/** Mentions and co-occurrence per namespace. */
export function testEntityGraph(test: TestFn, name: string, factory: () => Promise<Fixture<EntityGraph>>) {
  const it = withIndex(test, name, factory);
  it('neighbours by shared chunks; chunks by weighted entities', async (t, graph, ns) => {
    await graph.upsert(ns, [
      { chunkId: 'c1', documentId: 'd1', entities: ['tam', 'fred davis'] },
      { chunkId: 'c2', documentId: 'd1', entities: ['tam', 'perceived usefulness'] },
      { chunkId: 'c3', documentId: 'd2', entities: ['tam', 'fred davis', 'perceived usefulness'] },
      { chunkId: 'c4', documentId: 'd2', entities: ['mit'] },
    ]);
    t.deepEqual(await graph.neighbours(ns, 'tam', 5), [
      { entity: 'fred davis', weight: 2 },
      { entity: 'perceived usefulness', weight: 2 },
    ]);
    const chunks = await graph.chunksMentioning(ns, new Map([['fred davis', 1], ['perceived usefulness', 0.5]]), 10);
    t.deepEqual(chunks.map((c) => [c.id, c.score]), [['c3', 1.5], ['c1', 1], ['c2', 0.5]]);
    t.deepEqual((await graph.chunksMentioning(ns, new Map([['tam', 1]]), 10, { documentIds: ['d2'] })).map((c) => c.id), ['c3']);
    t.is(await graph.entityCount(ns), 4);
    t.deepEqual(await graph.mentionCounts(ns, ['tam', 'mit', 'nobody', 'tam']), new Map([['tam', 3], ['mit', 1]]));
    t.deepEqual(await graph.mentionCounts(ns, ['tam'], 2), new Map([['tam', 2]]));
  });
  it('re-upserting a chunk replaces its mentions; deletes', async (t, graph, ns) => {
    await graph.upsert(ns, [{ chunkId: 'c1', documentId: 'd1', entities: ['a', 'b'] }]);
    await graph.upsert(ns, [{ chunkId: 'c1', documentId: 'd1', entities: ['a', 'c'] }]);
    t.deepEqual(await graph.neighbours(ns, 'a', 5), [{ entity: 'c', weight: 1 }]);
    await graph.deleteByDocument(ns, 'd1');
    t.is(await graph.entityCount(ns), 0);
    await graph.upsert(ns, [{ chunkId: 'c2', documentId: 'd2', entities: ['x'] }]);
    await graph.deleteNamespace(ns);
    t.is(await graph.entityCount(ns), 0);
  });
}
