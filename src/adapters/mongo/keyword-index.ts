import type { Collection, Db } from 'mongodb';
import { BM25_DEFAULTS, type Bm25Parameters } from '../../domain/retrieval/bm25.ts';
import type { Analyzer } from '../../ports/analyzer.ts';
import type { KeywordIndex } from '../../ports/keyword-index.ts';
import type { PassageDocument } from '../../ports/passage-store.ts';
import { analyseDocuments, queryTerms, queryWords } from '../text/keyword-terms.ts';
import {
  type Candidate,
  type ChunkTerms,
  candidatePipeline,
  corpusStats,
  decrementedTerms,
  type KeywordChunkDoc,
  keywordChunk,
  latestPerChunk,
  NAMESPACE_STATS,
  rankCandidates,
  type StatsChange,
  statsDelta,
  statsWrites,
  type TermDoc,
} from './keyword-bm25.ts';
import { lazyIndexes } from './lazy-indexes.ts';

/** (namespace, document) pairs with chunks, in that order, after `after`. */
async function staleDocuments(chunks: Collection<KeywordChunkDoc>, after: PassageDocument | null, limit: number): Promise<PassageDocument[]> {
  const past = after
    ? { $or: [{ namespace: { $gt: after.namespace } }, { namespace: after.namespace, documentId: { $gt: after.documentId } }] }
    : {};
  return chunks
    .aggregate<PassageDocument>([
      { $match: past },
      { $group: { _id: { namespace: '$namespace', documentId: '$documentId' } } },
      { $sort: { '_id.namespace': 1, '_id.documentId': 1 } },
      { $limit: limit },
      { $project: { _id: 0, namespace: '$_id.namespace', documentId: '$_id.documentId' } },
    ])
    .toArray();
}

/** Enough candidates that textScore's order rarely decides what BM25 would rank in the top k ($limit takes an integer). */
const candidateCap = (topK: number) => Math.min(Math.max(10 * topK, 1000), 2 ** 31 - 1);

const COUNTS = { projection: { _id: 0, tf: 1, length: 1 } } as const;

/**
 * BM25 with the embedded index's analyser and scores, over MongoDB. Each chunk is stored
 * analysed (keyword-bm25.ts); Mongo's text index, built with language "none" so it neither
 * stems nor drops words again, only finds candidates; their BM25 is then computed exactly from
 * the stored counts and the namespace's statistics in `keyword_terms` (chunk count, total
 * length, document frequency per term), so scores equal the embedded index's.
 *
 * The one approximation: candidates are the best `candidateCap` by Mongo's textScore, which
 * weighs term frequency but not rarity. When a query's terms match more chunks than that, a
 * chunk that BM25 would rank in the top k for a rare term can lose its place to chunks that
 * repeat a common one, and is missed.
 *
 * Statistics are kept by $inc from what each write atomically replaced or removed, so a batch
 * redelivered while its first delivery still runs counts every chunk once. Without a
 * transaction, a crash between a chunk's write and its $inc leaves the statistics off by that
 * chunk: its idf and the average length drift slightly, matching is unaffected.
 */
export function createMongoKeywordIndex(db: Db, options: { analyzer: Analyzer; params?: Bm25Parameters }): KeywordIndex {
  const { analyzer, params = BM25_DEFAULTS } = options;
  const chunks = db.collection<KeywordChunkDoc>('keyword_chunks');
  const terms = db.collection<TermDoc>('keyword_terms');
  const meta = db.collection<{ _id: string; version: string }>('keyword_meta');
  const ready = lazyIndexes(
    [
      chunks,
      [
        { key: { namespace: 1, chunkId: 1 }, name: 'namespace_chunk', unique: true },
        { key: { namespace: 1, documentId: 1 }, name: 'namespace_document' },
        { key: { namespace: 1, terms: 'text' }, name: 'namespace_terms_text', default_language: 'none' },
      ],
    ],
    [terms, [{ key: { namespace: 1, term: 1 }, name: 'namespace_term', unique: true }]],
  );

  /** Applies the writes that succeeded to the statistics, then reports the first that failed. */
  const account = async (namespace: string, settled: PromiseSettledResult<StatsChange>[]) => {
    const delta = statsDelta(settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])));
    const writes = statsWrites(namespace, delta);
    if (writes.length > 0) await terms.bulkWrite(writes, { ordered: false });
    const emptied = decrementedTerms(delta);
    // The df condition is checked per row at delete time: a row a concurrent upsert just raised stays.
    if (emptied.length > 0) await terms.deleteMany({ namespace, term: { $in: emptied }, df: { $lte: 0 } });
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  };

  return {
    async upsert(namespace, docs, options) {
      if (docs.length === 0) return;
      await ready();
      const latest = latestPerChunk(docs);
      const analysed = analyseDocuments(analyzer, latest, options?.language);
      const replaced = latest.map(async (doc, i): Promise<StatsChange> => {
        const after = keywordChunk(namespace, doc, analysed[i]!);
        const filter = { namespace, chunkId: after.chunkId };
        const before = await chunks.findOneAndReplace(filter, after, { ...COUNTS, upsert: true, returnDocument: 'before' });
        return { before: before as ChunkTerms | null, after };
      });
      await account(namespace, await Promise.allSettled(replaced));
    },
    async deleteByDocument(namespace, documentId) {
      await ready();
      const ids = await chunks.find({ namespace, documentId }, { projection: { _id: 0, chunkId: 1 } }).toArray();
      const removed = ids.map(async ({ chunkId }): Promise<StatsChange> => {
        const before = await chunks.findOneAndDelete({ namespace, chunkId, documentId }, COUNTS);
        return { before: before as ChunkTerms | null, after: null };
      });
      await account(namespace, await Promise.allSettled(removed));
    },
    async deleteChunks(namespace, chunkIds) {
      if (chunkIds.length === 0) return;
      await ready();
      const removed = chunkIds.map(async (chunkId): Promise<StatsChange> => {
        const before = await chunks.findOneAndDelete({ namespace, chunkId }, COUNTS);
        return { before: before as ChunkTerms | null, after: null };
      });
      await account(namespace, await Promise.allSettled(removed));
    },
    async deleteNamespace(namespace) {
      await ready();
      await Promise.all([chunks.deleteMany({ namespace }), terms.deleteMany({ namespace })]);
    },
    async query(namespace, text, topK, filter, options) {
      if (filter?.documentIds?.length === 0) return [];
      const wanted = queryTerms(analyzer, text, options?.language);
      const k = Math.floor(topK);
      if (wanted.length === 0 || !(k > 0)) return [];
      await ready();
      const [rows, candidates] = await Promise.all([
        terms.find({ namespace, term: { $in: [NAMESPACE_STATS, ...wanted] } }, { projection: { _id: 0 } }).toArray(),
        chunks.aggregate<Candidate>(candidatePipeline(namespace, wanted, candidateCap(k), filter?.documentIds)).toArray(),
      ]);
      return rankCandidates(wanted, corpusStats(rows), candidates, k, params);
    },
    async termStats(namespace, text, options) {
      const words = queryWords(analyzer, text, options?.language);
      await ready();
      const rows = await terms.find({ namespace, term: { $in: [NAMESPACE_STATS, ...words.map((w) => w.term)] } }, { projection: { _id: 0 } }).toArray();
      const stats = corpusStats(rows);
      return { documents: stats.chunks, terms: words.map((w) => ({ ...w, documentFrequency: Math.max(stats.df.get(w.term) ?? 0, 0) })) };
    },
    async stale(after, limit) {
      await ready();
      const stamp = await meta.findOne({ _id: 'analyzer' });
      if (stamp?.version === analyzer.version) return [];
      if (stamp === null && (await chunks.findOne({}, { projection: { _id: 1 } })) === null) {
        await meta.updateOne({ _id: 'analyzer' }, { $set: { version: analyzer.version } }, { upsert: true });
        return [];
      }
      return staleDocuments(chunks, after, limit);
    },
    async markAnalyzed() {
      await meta.updateOne({ _id: 'analyzer' }, { $set: { version: analyzer.version } }, { upsert: true });
    },
    async count(namespace) {
      await ready();
      return chunks.countDocuments({ namespace });
    },
    async ping() {
      await db.command({ ping: 1 });
    },
  };
}
