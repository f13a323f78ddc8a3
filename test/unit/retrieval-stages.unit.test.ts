import test from 'ava';
import type { KnowledgeBaseDoc } from '../../projections/knowledge-bases/index.ts';
import { defaultSettings } from '../../schemas/knowledge-base-settings.ts';
import { contextOf } from '../../src/app/retrieval/retrieved-context.ts';
import { presentHits } from '../../src/app/retrieval/hits.ts';
import { passageCache } from '../../src/app/retrieval/passage-cache.ts';
import { rerankStage } from '../../src/app/retrieval/rerank-stage.ts';
import { fusionStage, type RetrievalState, thresholdStage } from '../../src/app/retrieval/stages.ts';
import type { Reranker } from '../../src/ports/models.ts';
import type { Passage, PassageStore } from '../../src/ports/passage-store.ts';
import type { ReadModelStore } from '../../src/ports/read-models.ts';

const kb = { id: 'kb1', settings: defaultSettings('m') } as unknown as KnowledgeBaseDoc;
const passage = (id: string, documentId: string, documentName: string | null = `${documentId}.txt`): Passage => ({
  chunkId: id,
  documentId,
  documentName,
  index: 0,
  page: 1,
  headingPath: ['Guide'],
  text: `text of ${id}`,
  charStart: 0,
  charEnd: `text of ${id}`.length,
  tokenCount: 3,
});

/** A passage store over `passages` that records each fetch. */
function passages(...stored: Passage[]) {
  const fetches: string[][] = [];
  const store = {
    async get(_ns: string, ids: readonly string[]) {
      fetches.push([...ids]);
      return new Map(stored.filter((p) => ids.includes(p.chunkId)).map((p) => [p.chunkId, p]));
    },
  } as unknown as PassageStore;
  return { store, fetches };
}

const documents = (names: Record<string, string>) =>
  ({
    async getMany(_c: string, ids: readonly string[]) {
      return new Map(ids.filter((id) => names[id]).map((id) => [id, { id, name: names[id], knowledge_base_id: 'kb1', status: 'ready' }]));
    },
  }) as unknown as ReadModelStore;

const state = (over: Partial<RetrievalState>): RetrievalState => ({
  query: 'q',
  kb,
  options: { recalls: ['vector', 'keyword'], topK: 5, threshold: 0, rerank: false },
  lists: [],
  ranked: [],
  ...over,
});

const lists = [
  { recall: 'vector' as const, matches: [{ id: 'c1', documentId: 'd1', score: 0.9 }, { id: 'c2', documentId: 'd2', score: 0.4 }] },
  { recall: 'keyword' as const, matches: [{ id: 'c2', documentId: 'd2', score: 0.3 }, { id: 'c3', documentId: 'd3', score: 0.2 }] },
];

test('fusion ranks the recalls’ lists; the threshold drops what scores under it', async (t) => {
  const { store } = passages();
  const ctx = { passages: passageCache(store, 'kb1') };
  const fused = await fusionStage.run(state({ lists }), ctx);
  t.deepEqual(fused.map((r) => r.candidate.id), ['c2', 'c1', 'c3']);
  t.true(fused.every((r) => r.rerank === null));
  const kept = await thresholdStage.run(state({ lists, ranked: fused, options: { ...state({}).options, threshold: 0.35 } }), ctx);
  t.deepEqual(kept.map((r) => r.candidate.id), ['c2', 'c1'], 'the strongest recall score counts');
});

test('rerank reads the head’s passages once and its scores replace the ranking, which the threshold then cuts', async (t) => {
  const { store, fetches } = passages(passage('c1', 'd1'), passage('c2', 'd2'));
  const seen: string[][] = [];
  const reranker: Reranker = {
    model: { id: 'r', kind: 'rerank', ownedBy: 'test', created: 0 },
    async rerank(_q, texts) {
      seen.push(texts);
      return [{ index: 1, score: 0.8 }, { index: 0, score: 0.1 }];
    },
  };
  const cache = passageCache(store, 'kb1');
  const options = { ...state({}).options, rerank: true, threshold: 0.5 };
  const fused = await fusionStage.run(state({ lists }), { passages: cache });
  const reranked = await rerankStage(new Map([['r', reranker]]), 'r').run(state({ lists, ranked: fused, options }), { passages: cache });
  t.deepEqual(seen, [['Guide\ntext of c2', 'Guide\ntext of c1']], 'chunks without a passage are not offered; each reads under its headings');
  t.deepEqual(reranked.map((r) => [r.candidate.id, r.rerank]), [['c1', 0.8], ['c2', 0.1]]);
  const kept = await thresholdStage.run(state({ ranked: reranked, options }), { passages: cache });
  t.deepEqual(kept.map((r) => r.candidate.id), ['c1']);
  const hits = await presentHits(kept, 5, cache, documents({ d1: 'd1.txt' }));
  t.is(hits[0]!.score, 0.8);
  t.is(fetches.length, 1, 'the results reuse the passages the reranker read');
});

test('rerank off or nothing to rerank: the ranking passes untouched and no reranker is needed', async (t) => {
  const { store, fetches } = passages();
  const stage = rerankStage(new Map(), 'missing');
  const ctx = { passages: passageCache(store, 'kb1') };
  const fused = await fusionStage.run(state({ lists }), ctx);
  t.is(await stage.run(state({ ranked: fused }), ctx), fused);
  t.deepEqual(await stage.run(state({ ranked: [], options: { ...state({}).options, rerank: true } }), ctx), []);
  await t.throwsAsync(async () => stage.run(state({ ranked: fused, options: { ...state({}).options, rerank: true } }), ctx), { message: /Rerank model missing/ });
  t.is(fetches.length, 0);
});

test('hits skip deleted documents and chunks without passages, name old passages from their document, and stop at top k', async (t) => {
  const { store } = passages(passage('c1', 'd1'), passage('c2', 'd2', null), passage('c3', 'gone'), passage('c5', 'd1'));
  const fused = await fusionStage.run(
    state({ lists: [{ recall: 'keyword', matches: ['c1', 'c2', 'c3', 'c4', 'c5'].map((id, i) => ({ id, documentId: id === 'c3' ? 'gone' : `d${(i % 2) + 1}`, score: 1 - i / 10 })) }] }),
    { passages: passageCache(store, 'kb1') },
  );
  const hits = await presentHits(fused, 2, passageCache(store, 'kb1'), documents({ d1: 'd1.txt', d2: 'named-from-document.txt' }));
  t.deepEqual(hits.map((h) => [h.chunkId, h.source]), [['c1', 'd1.txt'], ['c2', 'named-from-document.txt']]);
  const more = await presentHits(fused, 5, passageCache(store, 'kb1'), documents({ d1: 'd1.txt', d2: 'named-from-document.txt' }));
  t.deepEqual(more.map((h) => h.chunkId), ['c1', 'c2', 'c5']);
});

test('the context numbers the hits that fit the budget and cites each the same way', (t) => {
  const hit = (id: string, words: number) => ({
    chunkId: id,
    documentId: `doc-${id}`,
    knowledgeBaseId: 'kb_1',
    documentVersion: 2,
    source: `${id}.pdf`,
    page: 2,
    paragraph: Array.from({ length: words }, () => 'word').join(' '),
    headingPath: ['Manual'],
    boxes: [],
    charStart: 40,
    score: 0.5,
    scores: { vector: null, keyword: 0.5, graph: null, fused: 1, rerank: null },
  });
  const covered = { coverage: 0.8, answerable: true };
  const { hits, passages: numbered, citations } = contextOf([hit('a', 10), hit('b', 10), hit('c', 500)], 60, covered);
  t.is(hits.length, 3);
  t.deepEqual(numbered.map((p) => [p.index, p.source, p.page, p.text.slice(0, 11)]), [[1, 'a.pdf', 2, 'Manual\nword'], [2, 'b.pdf', 2, 'Manual\nword']]);
  const paragraph = hit('b', 10).paragraph;
  t.deepEqual(citations[1], { index: 2, source: 'b.pdf', page: 2, paragraph, document_id: 'doc-b', document_version: 2, knowledge_base_id: 'kb_1', chunk_id: 'b', score: 0.5, heading_path: ['Manual'], char_start: 40, char_end: 40 + paragraph.length, boxes: [] });
  t.deepEqual(contextOf([], 60, { coverage: 0, answerable: false }), { hits: [], passages: [], citations: [], coverage: 0, answerable: false });
  t.deepEqual(contextOf([hit('a', 10)], 0, covered).passages, [], 'a budget of 0 asks for no context');
  const uncovered = contextOf([hit('a', 10)], 60, { coverage: 0.1, answerable: false });
  t.deepEqual([uncovered.hits.length, uncovered.passages, uncovered.citations], [1, [], []], 'passages that cannot answer are not given to a model, nor cited');
});

test('hits come from each document’s current version only, and chunks held back do not shorten the answer (issue 44)', async (t) => {
  const versioned = (id: string, first: number, last: number): Passage => ({ ...passage(id, 'd1'), firstVersion: first, lastVersion: last });
  // Version 1 answers while version 2 is indexed: old-only (1..1), shared (1..2) and new-only (2..2) chunks are all stored.
  const { store } = passages(versioned('new1', 2, 2), versioned('new2', 2, 2), versioned('old', 1, 1), versioned('shared', 1, 2), passage('legacy', 'd2'));
  const ids = ['new1', 'new2', 'old', 'shared', 'legacy'];
  const fused = await fusionStage.run(
    state({ lists: [{ recall: 'keyword', matches: ids.map((id, i) => ({ id, documentId: id === 'legacy' ? 'd2' : 'd1', score: 1 - i / 10 })) }] }),
    { passages: passageCache(store, 'kb1') },
  );
  const docs = (current: number) =>
    ({
      async getMany(_c: string, wanted: readonly string[]) {
        const all = { d1: { id: 'd1', name: 'd1.txt', knowledge_base_id: 'kb1', status: 'indexing', version: 2, current_version: current }, d2: { id: 'd2', name: 'd2.txt', knowledge_base_id: 'kb1', status: 'ready' } };
        return new Map(wanted.filter((id) => id in all).map((id) => [id, all[id as keyof typeof all]]));
      },
    }) as unknown as ReadModelStore;
  const before = await presentHits(fused, 3, passageCache(store, 'kb1'), docs(1));
  t.deepEqual(before.map((h) => [h.chunkId, h.documentVersion]), [['old', 1], ['shared', 1], ['legacy', 1]]);
  // The moment version 2 is current: its chunks, none of version 1's own, before the indexer removed them.
  const after = await presentHits(fused, 1, passageCache(store, 'kb1'), docs(2));
  t.deepEqual(after.map((h) => [h.chunkId, h.documentVersion]), [['new1', 2]]);
  const all = await presentHits(fused, 10, passageCache(store, 'kb1'), docs(2));
  t.deepEqual(all.map((h) => h.chunkId), ['new1', 'new2', 'shared', 'legacy']);
});
