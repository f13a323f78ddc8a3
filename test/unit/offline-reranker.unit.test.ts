import test from 'ava';
import { createOfflineReranker, OFFLINE_RERANKER_ID } from '../../src/adapters/local/offline-reranker.ts';
import { leadingText, rerankFeatures } from '../../src/adapters/local/rerank-features.ts';
import { queryTerms, scanPassage } from '../../src/adapters/local/rerank-text.ts';
import { analyzer } from '../helpers/analyzer.ts';

const reranker = createOfflineReranker({ analyzer });
const porterStem = (word: string) => analyzer.terms(word, 'en')[0];
/** A tiny frequency list: "people" and "study" are common English, "mitochondria" is not listed. */
const wordRanks = new Map(['people', 'study', 'cells', 'increase'].map((w, i) => [w, i * 100]));

const filler = 'The cohort was followed for several years and outcomes were recorded by trained staff.';

test('describes itself as the kbqa rerank model', (t) => {
  t.like(reranker.model, { id: OFFLINE_RERANKER_ID, kind: 'rerank', ownedBy: 'kbqa' });
});

test('the Porter stemmer joins inflections the way the keyword index does', (t) => {
  const stems = ['inhibits', 'inhibited', 'inhibiting', 'inhibit'].map(porterStem);
  t.deepEqual(new Set(stems), new Set(['inhibit']));
  t.is(porterStem('relational'), 'relat');
  t.is(porterStem('ponies'), 'poni');
  t.is(porterStem('caresses'), 'caress');
  t.is(porterStem('hopping'), 'hop');
  t.is(porterStem('5mg'), '5mg', 'words with digits stay as they are');
});

test('query terms drop stop words and repeats; a passage scan numbers sentences and marks the title line', (t) => {
  const terms = queryTerms(analyzer, 'Statins reduce the risk of stroke, and statin use is safe.', 'en');
  t.deepEqual(terms.map((q) => q.stem), ['statin', 'reduc', 'risk', 'stroke', 'us', 'safe']);
  const index = new Map(terms.map((q, i) => [q.stem, i]));
  const scan = scanPassage(analyzer, 'Statins and stroke\n\nWe studied risk. Stroke fell; statins helped.', index, 'en');
  t.deepEqual(scan.hitTerm, [0, 3, 2, 3, 0]);
  t.deepEqual(scan.hitSentence, [0, 0, 1, 2, 3]);
  t.deepEqual(scan.hitInTitle, [1, 1, 0, 0, 0]);
  const prose = scanPassage(analyzer, `${Array.from({ length: 50 }, () => 'statins').join(' ')}\nstroke`, index, 'en');
  t.true(prose.hitInTitle.every((v) => v === 0), 'a 50-word first line is prose, not a title');
  t.true(scanPassage(analyzer, 'Statins and stroke with no line break', index, 'en').hitInTitle.every((v) => v === 0));
});

test('rare query words weigh more than common ones', (t) => {
  const [rare, common] = rerankFeatures('mitochondria people', [`Mitochondria swell under stress. ${filler}`, `People swell under stress. ${filler}`], { wordRanks, analyzer });
  t.true(rare!.bm25 > common!.bm25);
  t.true(rare!.sentence > common!.sentence);
});

test('features stay in 0..1 and the first-stage prior falls with rank', (t) => {
  const passages = Array.from({ length: 8 }, (_, i) => `Title ${i}\n\nmitochondria study cells increase ${filler}`.repeat(i + 1));
  const features = rerankFeatures('mitochondria study cells increase', passages, { wordRanks, analyzer });
  for (const f of features) for (const v of Object.values(f)) t.true(v >= 0 && v <= 1, `${v}`);
  t.deepEqual(features.map((f) => f.prior), [...features.map((f) => f.prior)].sort((a, b) => b - a));
  t.is(features[0]!.prior, 1);
});

test('a passage that states the claim in one sentence outranks ones that scatter or miss its words', async (t) => {
  const query = 'Vitamin D supplementation reduces fracture risk in elderly women.';
  const passages = [
    `Dietary habits of adolescents\n\nVitamin intake was low. ${filler} Some women smoked. Fracture clinics were busy. ${filler}`,
    `Bone health in later life\n\n${filler} In elderly women, vitamin D supplementation reduced the risk of hip fracture by a third.`,
    `Traffic noise and sleep\n\n${filler} ${filler}`,
  ];
  const ranked = await reranker.rerank(query, passages, 3);
  t.deepEqual(ranked.map((r) => r.index), [1, 0, 2]);
  t.true(ranked[0]!.score > 0.5, `clear match scores ${ranked[0]!.score}`);
  t.true(ranked[2]!.score < 0.05, `unrelated passage scores ${ranked[2]!.score}`);
  for (const r of ranked) t.true(r.score >= 0 && r.score <= 1);
});

test('a passage that states the whole query scores alike for a short and a long query', async (t) => {
  const short = await reranker.rerank('telomerase senescence', ['Telomerase activity delays senescence in fibroblasts.'], 1);
  const long = await reranker.rerank('Telomerase activity delays replicative senescence of human fibroblasts in culture', [
    'Telomerase activity delays replicative senescence of human fibroblasts in culture, we found.',
  ], 1);
  t.true(short[0]!.score > 0.5 && long[0]!.score > 0.5);
  t.true(Math.abs(short[0]!.score - long[0]!.score) < 0.05, `${short[0]!.score} vs ${long[0]!.score}`);
});

test('returns at most topN, each index once, best first', async (t) => {
  const passages = Array.from({ length: 20 }, (_, i) => `Doc ${i}\n\n${i % 3 === 0 ? 'insulin resistance in muscle' : 'gut microbiota'} ${filler}`);
  const ranked = await reranker.rerank('insulin resistance', passages, 5);
  t.is(ranked.length, 5);
  t.is(new Set(ranked.map((r) => r.index)).size, 5);
  t.true(ranked.every((r) => r.index % 3 === 0));
  t.deepEqual(ranked.map((r) => r.score), [...ranked.map((r) => r.score)].sort((a, b) => b - a));
});

test('nothing to match keeps the first-stage order; empty input or topN 0 gives nothing', async (t) => {
  const passages = ['alpha beta', 'gamma delta', 'epsilon'];
  const ranked = await reranker.rerank('the of and', passages, 3);
  t.deepEqual(ranked.map((r) => r.index), [0, 1, 2]);
  t.true(ranked.every((r) => r.score > 0 && r.score < 0.05));
  t.deepEqual(await reranker.rerank('query', [], 5), []);
  t.deepEqual(await reranker.rerank('query', passages, 0), []);
});

test('an aborted request is refused', async (t) => {
  const controller = new AbortController();
  controller.abort(new Error('client went away'));
  await t.throwsAsync(reranker.rerank('query', ['text'], 1, controller.signal), { message: 'client went away' });
});

test('the language sample is the start of the passages joined by line breaks', (t) => {
  const cases: string[][] = [[], [''], ['', 'abc'], ['abc', 'de'], ['x'.repeat(600), 'y'], ['ab', 'c'.repeat(510), 'z']];
  for (const passages of cases) t.is(leadingText(passages, 512), passages.join('\n').slice(0, 512), JSON.stringify(passages).slice(0, 40));
});
