import test, { type ExecutionContext } from 'ava';
import { join } from 'node:path';
import {
  type Candidate,
  candidatePipeline,
  corpusStats,
  countOf,
  decrementedTerms,
  type KeywordChunkDoc,
  keywordChunk,
  latestPerChunk,
  NAMESPACE_STATS,
  rankCandidates,
  statsDelta,
  statsWrites,
  type TermDoc,
} from '../../src/adapters/mongo/keyword-bm25.ts';
import { openSqlite } from '../../src/adapters/sqlite/database.ts';
import { createSqliteKeywordIndex } from '../../src/adapters/sqlite/keyword-index.ts';
import type { KeywordDocument, KeywordMatch } from '../../src/ports/keyword-index.ts';
import { tempDir } from '../helpers/temp.ts';
import { analyseDocuments } from '../../src/adapters/text/keyword-terms.ts';
import { analyzer } from '../helpers/analyzer.ts';

const chunkOf = (doc: KeywordDocument) => keywordChunk('kb', doc, analyzer.terms(doc.text));

/** The Mongo keyword index without a server (its entity graph: mongo-graph.unit.test.ts). */

/**
 * What the Mongo adapter's writes leave in its two collections, kept in maps: each upsert and
 * delete goes through the same pure functions the adapter uses, and a query's candidates are
 * every chunk sharing a term with it (what $text returns below its cap).
 */
class MongoModel {
  readonly chunks = new Map<string, KeywordChunkDoc>();
  readonly rows = new Map<string, TermDoc>();

  upsert(docs: KeywordDocument[]) {
    const latest = latestPerChunk(docs);
    const terms = analyseDocuments(analyzer, latest);
    this.#account(
      latest.map((doc, i) => {
        const after = keywordChunk('kb', doc, terms[i]!);
        const before = this.chunks.get(doc.id) ?? null;
        this.chunks.set(doc.id, after);
        return { before, after };
      }),
    );
  }

  deleteByDocument(documentId: string) {
    const gone = [...this.chunks.values()].filter((c) => c.documentId === documentId);
    for (const c of gone) this.chunks.delete(c.chunkId);
    this.#account(gone.map((before) => ({ before, after: null })));
  }

  query(text: string, topK: number, documentIds?: string[]): KeywordMatch[] {
    const terms = [...new Set(analyzer.terms(text))];
    const candidates: Candidate[] = [...this.chunks.values()]
      .filter((c) => (!documentIds || documentIds.includes(c.documentId)) && c.terms.split(' ').some((t) => terms.includes(t)))
      .map((c) => {
        const tf = Object.fromEntries(terms.filter((t) => countOf(c.tf, t) > 0).map((t) => [t, c.tf[t]!]));
        return { chunkId: c.chunkId, documentId: c.documentId, length: c.length, tf };
      });
    const rows = [...this.rows.values()].filter((r) => r.term === NAMESPACE_STATS || terms.includes(r.term));
    return rankCandidates(terms, corpusStats(rows), candidates, topK);
  }

  #account(changes: Parameters<typeof statsDelta>[0]) {
    const delta = statsDelta(changes);
    for (const write of statsWrites('kb', delta)) {
      // Every statistics write is an upserting $inc of one row.
      const { filter, update } = (write as { updateOne: { filter: { term: string }; update: { $inc: Record<string, number> } } }).updateOne;
      const row: Record<string, unknown> = this.rows.get(filter.term) ?? { namespace: 'kb', term: filter.term };
      for (const [field, by] of Object.entries(update.$inc)) row[field] = ((row[field] as number | undefined) ?? 0) + by;
      this.rows.set(filter.term, row as TermDoc);
    }
    for (const term of decrementedTerms(delta)) if ((this.rows.get(term)?.df ?? 0) <= 0) this.rows.delete(term);
  }
}

function sameMatches(t: ExecutionContext, actual: KeywordMatch[], expected: KeywordMatch[], label: string) {
  t.is(actual.length, expected.length, `${label}: count`);
  actual.forEach((m, i) => {
    const e = expected[i]!;
    // The embedded index sums in Float32: scores agree to its precision, and near-ties may swap.
    t.true(Math.abs(m.score - e.score) < 1e-5, `${label}: score at ${i}: ${m.score} vs ${e.score}`);
    const clear = (j: number) => j < 0 || j >= expected.length || Math.abs(expected[j]!.score - e.score) > 1e-5;
    if (clear(i - 1) && clear(i + 1)) t.is(m.id, e.id, `${label}: id at ${i}`);
  });
}

async function withSqliteKeywords(body: (index: ReturnType<typeof createSqliteKeywordIndex>) => Promise<void>) {
  const dir = tempDir();
  const db = openSqlite(join(dir.path, 'kbqa.db'));
  try {
    await body(createSqliteKeywordIndex(db, { analyzer }));
  } finally {
    db.close();
    dir.remove();
  }
}

test('a keyword chunk stores the analyser’s terms, their counts and the BM25 length', (t) => {
  const text = 'Vitamin D deficiency; vitamin D and fractures. The constructor constructs.';
  const doc = chunkOf({ id: 'c1', documentId: 'd1', text });
  t.is(doc.terms, analyzer.terms(text).join(' '));
  t.is(doc.length, analyzer.terms(text).length);
  t.is(countOf(doc.tf, 'vitamin'), 2);
  t.is(countOf(doc.tf, 'constructor'), 1);
  t.is(countOf({}, 'constructor'), 0, 'a term named like a prototype property reads nothing');
  t.deepEqual(Object.keys(doc.tf).sort(), [...new Set(analyzer.terms(text))].sort());
  t.like(doc, { namespace: 'kb', chunkId: 'c1', documentId: 'd1' });
  t.deepEqual(chunkOf({ id: 'c2', documentId: 'd1', text: 'the of and' }).terms, '');
});

test('terms are safe as field names and as $search words, whatever the text', (t) => {
  const hostile = ['"unbalanced quote', 'fox" OR "dog', '-not -this', 'a.b $where __proto__ constructor', '\u0000\uffff\ud800', '维生素D缺乏', 'CAFÉ'];
  for (const term of hostile.flatMap((x) => analyzer.terms(x))) {
    t.regex(term, /^[\p{L}\p{N}\p{M}]+$/u, term);
    t.false(term.startsWith('_') || term.includes('.') || term.includes('$'));
  }
});

test('a batch keeps each chunk’s last version', (t) => {
  const docs = [{ id: 'a', documentId: 'd', text: 'one' }, { id: 'b', documentId: 'd', text: 'two' }, { id: 'a', documentId: 'd', text: 'three' }];
  t.deepEqual(latestPerChunk(docs).map((d) => d.text).sort(), ['three', 'two']);
});

test('statistics change by what a write replaced or removed', (t) => {
  const old = chunkOf({ id: 'c1', documentId: 'd1', text: 'alpha beta beta' });
  const now = chunkOf({ id: 'c1', documentId: 'd1', text: 'beta gamma gamma gamma' });
  const fresh = chunkOf({ id: 'c2', documentId: 'd1', text: 'alpha' });
  const delta = statsDelta([{ before: old, after: now }, { before: null, after: fresh }]);
  t.deepEqual(delta, { chunks: 1, length: 2, df: new Map([['gamma', 1]]) }, 'alpha moved from c1 to c2, beta stayed');
  t.deepEqual(statsWrites('kb', delta), [
    { updateOne: { filter: { namespace: 'kb', term: 'gamma' }, update: { $inc: { df: 1 } }, upsert: true } },
    { updateOne: { filter: { namespace: 'kb', term: NAMESPACE_STATS }, update: { $inc: { chunks: 1, length: 2 } }, upsert: true } },
  ]);
  const removed = statsDelta([{ before: now, after: null }]);
  t.deepEqual(removed, { chunks: -1, length: -4, df: new Map([['beta', -1], ['gamma', -1]]) });
  t.deepEqual(decrementedTerms(removed), ['beta', 'gamma']);
  t.deepEqual(statsWrites('kb', statsDelta([{ before: old, after: old }])), [], 'an identical replacement writes nothing');
});

test('corpus statistics read back from keyword_terms rows', (t) => {
  const stats = corpusStats([
    { namespace: 'kb', term: NAMESPACE_STATS, chunks: 3, length: 17 },
    { namespace: 'kb', term: 'alpha', df: 2 },
  ]);
  t.deepEqual(stats, { chunks: 3, totalLength: 17, df: new Map([['alpha', 2]]) });
  t.deepEqual(corpusStats([]), { chunks: 0, totalLength: 0, df: new Map() });
});

test('the candidate pipeline: $text first with the namespace, textScore order, a cap, only the query’s counts', (t) => {
  t.deepEqual(candidatePipeline('kb', ['vitamin', 'd'], 1000), [
    { $match: { namespace: 'kb', $text: { $search: 'vitamin d' } } },
    { $sort: { score: { $meta: 'textScore' }, chunkId: 1 } },
    { $limit: 1000 },
    { $project: { _id: 0, chunkId: 1, documentId: 1, length: 1, 'tf.vitamin': 1, 'tf.d': 1 } },
  ]);
  const filtered = candidatePipeline('kb', ['x'], 50, ['d1', 'd2']);
  t.deepEqual(filtered[0], { $match: { namespace: 'kb', $text: { $search: 'x' }, documentId: { $in: ['d1', 'd2'] } } });
});

test('ranking candidates: 0..1, zero scores dropped, ties by chunk id, no more than k', (t) => {
  const stats = { chunks: 4, totalLength: 8, df: new Map([['a', 2]]) };
  const c = (chunkId: string, tf: Record<string, number>): Candidate => ({ chunkId, documentId: 'd', length: 2, tf });
  const ranked = rankCandidates(['a', 'zzz'], stats, [c('y', { a: 1 }), c('x', { a: 1 }), c('w', {}), c('v', { b: 3 })], 10);
  t.deepEqual(ranked.map((m) => m.id), ['x', 'y']);
  t.true(ranked.every((m) => m.score > 0 && m.score < 1));
  t.deepEqual(rankCandidates(['a'], stats, [c('y', { a: 1 }), c('x', { a: 1 })], 1).map((m) => m.id), ['x']);
  t.deepEqual(rankCandidates(['a'], stats, [c('x', { a: 1 })], 0), []);
  t.deepEqual(rankCandidates(['a'], { chunks: 0, totalLength: 0, df: new Map() }, [c('x', { a: 1 })], 5), [], 'an empty namespace');
  t.is(rankCandidates(['a'], stats, [c('x', { a: 300 })], 1)[0]!.score <= 1, true);
});

test('BM25 over candidates equals the embedded index, through replacements and deletes', async (t) => {
  await withSqliteKeywords(async (sqlite) => {
    const model = new MongoModel();
    const both = async (docs: KeywordDocument[]) => {
      await sqlite.upsert('kb', docs);
      model.upsert(docs);
    };
    let compared = 0;
    const check = async (label: string, text: string, topK = 10, documentIds?: string[]) => {
      const embedded = await sqlite.query('kb', text, topK, documentIds ? { documentIds } : undefined);
      compared += embedded.length;
      sameMatches(t, model.query(text, topK, documentIds), embedded, `${label}: ${text}`);
    };

    await both([
      { id: 'c1', documentId: 'd1', text: 'Vitamin D deficiency is associated with bone fractures in elderly patients.' },
      { id: 'c2', documentId: 'd1', text: 'Bone density and fracturing: a survey of calcium intake.' },
      { id: 'c3', documentId: 'd2', text: 'Solar panels convert sunlight into electricity.' },
      { id: 'c4', documentId: 'd2', text: 'Statins lower cholesterol and reduce cardiovascular mortality in older adults.' },
      { id: 'c5', documentId: 'd3', text: 'Cholesterol is carried in the blood by lipoproteins. Cholesterol, cholesterol.' },
      { id: 'c6', documentId: 'd3', text: '维生素D缺乏与骨折有关。Le café est très chaud.' },
    ]);
    // A corpus with common and rare words, so idf and length normalisation both matter.
    let seed = 7;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const words = 'insulin beta cells glucose bone vitamin calcium protein receptor tumour growth signal pathway kinase response'.split(' ');
    const random = (n: number) => Array.from({ length: n }, () => words[Math.floor(rnd() ** 2 * words.length)]).join(' ');
    await both(Array.from({ length: 120 }, (_, i) => ({ id: `r${i}`, documentId: `rd${i % 9}`, text: random(3 + Math.floor(rnd() * 40)) })));

    const queries = [
      'vitamin D fractures',
      'statins reduce cholesterol mortality zyxwvut',
      'insulin beta cells',
      'kinase signal pathway response',
      '骨折',
      'CAFÉ',
      'zyxwvut',
    ];
    for (const q of queries) await check('initial', q);
    await check('filtered', 'insulin beta cells', 10, ['rd1', 'rd4']);
    await check('top 3', 'bone calcium growth', 3);

    await both([{ id: 'c1', documentId: 'd1', text: 'insulin insulin insulin' }, { id: 'r5', documentId: 'rd5', text: random(12) }]);
    await sqlite.deleteByDocument('kb', 'rd2');
    model.deleteByDocument('rd2');
    await sqlite.deleteByDocument('kb', 'd3');
    model.deleteByDocument('d3');
    for (const q of queries) await check('after writes', q);
    t.is(model.chunks.size, await sqlite.count('kb'));
    t.true(compared > 60, `${compared} matches compared`);
    t.false(model.rows.has('lipoprotein'), 'a term no chunk has any more loses its row');
  });
});
