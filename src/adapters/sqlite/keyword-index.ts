import { BM25_DEFAULTS, type Bm25Parameters } from '../../domain/retrieval/bm25.ts';
import type { Analyzer } from '../../ports/analyzer.ts';
import type { KeywordDocument, KeywordIndex } from '../../ports/keyword-index.ts';
import { analyseDocuments, queryTerms, queryWords } from '../text/keyword-terms.ts';
import { immediate, type SqliteDatabase } from './database.ts';
import { postingsBytes } from './index-footprint.ts';
import type { Resident } from './index-memory.ts';
import { decodeTerms, encodeTerms, type TermList } from './keyword-codec.ts';
import { migrateFts5Tables } from './keyword-legacy.ts';
import { NamespacePostings } from './keyword-postings.ts';
import { createKeywordStore, type KeywordStore } from './keyword-store.ts';

type Loaded = { ns: number; postings: NamespacePostings; nextSeq: number; version: number };

export type SqliteKeywordOptions = { analyzer: Analyzer; params?: Bm25Parameters };

/**
 * BM25 over an in-memory inverted index per namespace, mirrored from SQLite. SQLite holds each
 * chunk's analysed terms (the truth, written in immediate transactions like every other index);
 * a namespace's postings are rebuilt from them on first use (about 0.6 s for 100k chunks) and
 * then kept in step by every upsert and delete. One process owns the data directory and does all
 * the writing; every write bumps the namespace's version, so a process that only reads (a query
 * process) reads a namespace again once its copy falls behind. FTS5, which this replaced, took about a second to
 * rank a claim-length OR query over 100k chunks (this: about half a millisecond), and could not
 * give the normalised score the port promises.
 */
export function createSqliteKeywordIndex(db: SqliteDatabase, options: SqliteKeywordOptions): KeywordIndex & Resident {
  const { analyzer, params = BM25_DEFAULTS } = options;
  const store = createKeywordStore(db);
  const loaded = new Map<string, Loaded>();
  // Terms written by another analyzer (or by the one before versions were kept) no longer meet
  // today's queries: the index says so through `stale` until its documents are analysed again.
  if (store.analyzerVersion() === null && store.isEmpty()) store.setAnalyzerVersion(analyzer.version);
  let current = store.analyzerVersion() === analyzer.version;

  const open = (namespace: string, create: boolean): Loaded | null => {
    const cached = loaded.get(namespace);
    // A copy another process's writes left behind (this one may only be reading) is read again.
    if (cached && store.version(cached.ns) === cached.version) return cached;
    const ns = store.namespace(namespace, create);
    if (ns === null) return null;
    // One read transaction, so that the version recorded is that of the rows read.
    const entry = db.transaction(() => readBack(store, ns, params))();
    loaded.set(namespace, entry);
    return entry;
  };

  /** A failed write may have changed the mirror but not the file: forget it, the next use re-reads. */
  const guarded = <T>(namespace: string, fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      loaded.delete(namespace);
      throw error;
    }
  };

  const upsert = (namespace: string, docs: KeywordDocument[], language?: string) => {
    const terms = analyseDocuments(analyzer, docs, language);
    const analysed = docs.map((doc, i) => ({ doc, ...termFrequencies(terms[i]!) }));
    guarded(namespace, () => {
      const entry = open(namespace, true)!;
      const { ns, postings } = entry;
      immediate(db, () => {
        for (const { doc, tf, length } of analysed) {
          if (postings.has(doc.id)) {
            postings.remove(doc.id, decodeTerms(store.chunkTerms(ns, doc.id) ?? new Uint8Array(0)));
            store.dropChunk(ns, doc.id);
          }
          const terms = termList(tf, (term) => postings.intern(term, (t, id) => store.putTerm(ns, id, t)));
          store.putChunk(ns, { seq: entry.nextSeq++, chunkId: doc.id, documentId: doc.documentId, length, terms: encodeTerms(terms) });
          postings.add(doc.id, doc.documentId, terms, length);
        }
        entry.version = store.bump(ns);
      });
      postings.compactIfDue();
    });
  };
  migrateFts5Tables(db, upsert);

  /**
   * The namespace a removal works on, and its postings when they are in memory and still current
   * (only those need the removed chunks' terms); stale postings are dropped, to be loaded again.
   */
  const forRemoval = (namespace: string) => {
    const cached = loaded.get(namespace);
    const entry = cached && store.version(cached.ns) === cached.version ? cached : undefined;
    if (cached && !entry) loaded.delete(namespace);
    return { entry, ns: entry?.ns ?? store.namespace(namespace, false) };
  };

  return {
    async upsert(namespace, docs, options) {
      if (docs.length > 0) upsert(namespace, docs, options?.language);
    },
    async deleteByDocument(namespace, documentId) {
      const { entry, ns } = forRemoval(namespace);
      if (ns === null) return;
      guarded(namespace, () => {
        immediate(db, () => {
          // Only a namespace already in memory needs the removed chunks' terms.
          if (entry) for (const row of store.documentChunks(ns, documentId)) entry.postings.remove(row.chunk_id, decodeTerms(row.terms));
          store.dropDocument(ns, documentId);
          const version = store.bump(ns);
          if (entry) entry.version = version;
        });
        entry?.postings.compactIfDue();
      });
    },
    async deleteChunks(namespace, chunkIds) {
      if (chunkIds.length === 0) return;
      const { entry, ns } = forRemoval(namespace);
      if (ns === null) return;
      guarded(namespace, () => {
        immediate(db, () => {
          for (const id of chunkIds) {
            const terms = store.chunkTerms(ns, id);
            if (terms === undefined) continue;
            entry?.postings.remove(id, decodeTerms(terms));
            store.dropChunk(ns, id);
          }
          const version = store.bump(ns);
          if (entry) entry.version = version;
        });
        entry?.postings.compactIfDue();
      });
    },
    async deleteNamespace(namespace) {
      loaded.delete(namespace);
      const ns = store.namespace(namespace, false);
      if (ns !== null) immediate(db, () => store.dropNamespace(ns));
    },
    async query(namespace, text, topK, filter, options) {
      if (filter?.documentIds?.length === 0) return [];
      const terms = queryTerms(analyzer, text, options?.language);
      if (terms.length === 0) return [];
      return open(namespace, false)?.postings.search(terms, topK, filter?.documentIds) ?? [];
    },
    async termStats(namespace, text, options) {
      const postings = open(namespace, false)?.postings;
      const terms = queryWords(analyzer, text, options?.language).map((t) => ({ ...t, documentFrequency: postings?.documentFrequency(t.term) ?? 0 }));
      return { documents: postings?.size ?? 0, terms };
    },
    async stale(after, limit) {
      return current ? [] : store.documentsAfter(after?.namespace ?? '', after?.documentId ?? '', limit);
    },
    async markAnalyzed() {
      store.setAnalyzerVersion(analyzer.version);
      current = true;
    },
    async count(namespace) {
      const entry = loaded.get(namespace);
      if (entry) return entry.postings.size;
      const ns = store.namespace(namespace, false);
      return ns === null ? 0 : store.count(ns);
    },
    async ping() {
      store.ping();
    },
    footprint(namespace) {
      const entry = loaded.get(namespace);
      return entry ? postingsBytes(entry.postings.holdings()) : 0;
    },
    unload(namespace) {
      loaded.delete(namespace);
    },
  };
}

/** A text's terms with their frequencies, and how many terms it has (its BM25 length). */
function termFrequencies(terms: readonly string[]): { tf: Map<string, number>; length: number } {
  const tf = new Map<string, number>();
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, length: terms.length };
}

/** A chunk's terms as ids ascending with their frequencies, as stored and as the postings take them. */
function termList(tf: Map<string, number>, idOf: (term: string) => number): TermList {
  // One packed number per term sorts natively, without a comparator: id above, frequency below.
  const packed = new Float64Array(tf.size);
  let i = 0;
  for (const [term, n] of tf) packed[i++] = idOf(term) * 2 ** 21 + Math.min(n, 2 ** 21 - 1);
  packed.sort();
  const ids = new Uint32Array(packed.length);
  const tfs = new Uint32Array(packed.length);
  for (let j = 0; j < packed.length; j++) {
    ids[j] = Math.floor(packed[j]! / 2 ** 21);
    tfs[j] = packed[j]! % 2 ** 21;
  }
  return { ids, tfs };
}

function readBack(store: KeywordStore, ns: number, params: Bm25Parameters): Loaded {
  const postings = new NamespacePostings(params);
  for (const [id, term] of store.terms(ns)) postings.defineTerm(term, id);
  postings.load(store.chunks(ns));
  return { ns, postings, nextSeq: store.nextSeq(ns), version: store.version(ns) ?? 0 };
}
