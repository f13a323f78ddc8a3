import type { SqliteDatabase } from './database.ts';

/** A chunk row as written: `seq` orders the namespace's chunks, `terms` as keyword-codec.ts encodes them. */
export type ChunkRecord = { seq: number; chunkId: string; documentId: string; length: number; terms: Buffer };

/** A chunk row as read back to rebuild a namespace: [chunk id, document id, length, encoded terms]. */
export type ChunkRow = [chunkId: string, documentId: string, length: number, terms: Buffer];

/**
 * What the keyword index keeps on disk: per namespace, its vocabulary (term → id) and each
 * chunk's analysed terms, not its text, so reading a namespace back needs no re-tokenising or
 * stemming. Chunk rows are keyed by (namespace, seq) so they come back in indexing order with
 * one sequential scan. The postings themselves live only in memory (see keyword-postings.ts).
 */
export function createKeywordStore(db: SqliteDatabase) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS keyword_namespaces (ns INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE IF NOT EXISTS keyword_terms (
      ns INTEGER NOT NULL, term_id INTEGER NOT NULL, term TEXT NOT NULL, PRIMARY KEY (ns, term_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS keyword_chunks (
      ns INTEGER NOT NULL, seq INTEGER NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL,
      length INTEGER NOT NULL, terms BLOB NOT NULL, PRIMARY KEY (ns, seq)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX IF NOT EXISTS keyword_chunks_by_id ON keyword_chunks (ns, chunk_id);
    CREATE INDEX IF NOT EXISTS keyword_chunks_by_document ON keyword_chunks (ns, document_id);
    CREATE TABLE IF NOT EXISTS keyword_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
  // Every write bumps its namespace's version, so a process that only reads (a query process)
  // knows when its copy in memory fell behind. Data directories from before it get the column.
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(keyword_namespaces)').all();
  if (!columns.some((c) => c.name === 'version')) db.exec('ALTER TABLE keyword_namespaces ADD COLUMN version INTEGER NOT NULL DEFAULT 0');
  const versionOf = db.prepare<[number], { version: number }>('SELECT version FROM keyword_namespaces WHERE ns = ?');
  const bump = db.prepare<[number], { version: number }>('UPDATE keyword_namespaces SET version = version + 1 WHERE ns = ? RETURNING version');
  const findNamespace = db.prepare<[string], { ns: number }>('SELECT ns FROM keyword_namespaces WHERE name = ?');
  const addNamespace = db.prepare('INSERT INTO keyword_namespaces (name) VALUES (?)');
  const terms = db.prepare<[number], [number, string]>('SELECT term_id, term FROM keyword_terms WHERE ns = ?').raw(true);
  const chunks = db.prepare<[number], ChunkRow>('SELECT chunk_id, document_id, length, terms FROM keyword_chunks WHERE ns = ? ORDER BY seq').raw(true);
  const lastSeq = db.prepare<[number], { seq: number | null }>('SELECT max(seq) AS seq FROM keyword_chunks WHERE ns = ?');
  const chunkTerms = db.prepare<[number, string], { terms: Buffer }>('SELECT terms FROM keyword_chunks WHERE ns = ? AND chunk_id = ?');
  // Without the hints SQLite (3.53, no ANALYZE) walks the whole namespace by primary key instead
  // of the document's few rows: 10-60 ms per document at 100k chunks instead of well under 1 ms.
  const documentChunks = db.prepare<[number, string], { chunk_id: string; terms: Buffer }>(
    'SELECT chunk_id, terms FROM keyword_chunks INDEXED BY keyword_chunks_by_document WHERE ns = ? AND document_id = ?',
  );
  const putTerm = db.prepare('INSERT INTO keyword_terms (ns, term_id, term) VALUES (?, ?, ?)');
  const putChunk = db.prepare('INSERT INTO keyword_chunks (ns, seq, chunk_id, document_id, length, terms) VALUES (?, ?, ?, ?, ?, ?)');
  const dropChunk = db.prepare('DELETE FROM keyword_chunks WHERE ns = ? AND chunk_id = ?');
  const dropDocument = db.prepare('DELETE FROM keyword_chunks INDEXED BY keyword_chunks_by_document WHERE ns = ? AND document_id = ?');
  const dropNamespace = [
    db.prepare('DELETE FROM keyword_chunks WHERE ns = ?'),
    db.prepare('DELETE FROM keyword_terms WHERE ns = ?'),
    db.prepare('DELETE FROM keyword_namespaces WHERE ns = ?'),
  ];
  const countChunks = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM keyword_chunks WHERE ns = ?');
  const ping = db.prepare('SELECT 1');
  const getMeta = db.prepare<[string], { value: string }>('SELECT value FROM keyword_meta WHERE key = ?');
  const setMeta = db.prepare('INSERT INTO keyword_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const anyChunk = db.prepare('SELECT 1 FROM keyword_chunks LIMIT 1');
  const documentsAfter = db.prepare<[string, string, number], { namespace: string; documentId: string }>(
    `SELECT DISTINCT n.name AS namespace, c.document_id AS documentId FROM keyword_chunks c JOIN keyword_namespaces n ON n.ns = c.ns
     WHERE (n.name, c.document_id) > (?, ?) ORDER BY n.name, c.document_id LIMIT ?`,
  );

  return {
    /** The namespace's number, created when asked to; null if it has none. */
    namespace(name: string, create: boolean): number | null {
      const found = findNamespace.get(name)?.ns;
      if (found !== undefined || !create) return found ?? null;
      return Number(addNamespace.run(name).lastInsertRowid);
    },
    /** The namespace's write count: null once the namespace is gone. */
    version: (ns: number): number | null => versionOf.get(ns)?.version ?? null,
    /** Counts a write; inside the write's transaction. */
    bump: (ns: number): number => bump.get(ns)!.version,
    terms: (ns: number) => terms.iterate(ns),
    chunks: (ns: number) => chunks.iterate(ns),
    nextSeq: (ns: number) => (lastSeq.get(ns)?.seq ?? -1) + 1,
    chunkTerms: (ns: number, chunkId: string) => chunkTerms.get(ns, chunkId)?.terms,
    documentChunks: (ns: number, documentId: string) => documentChunks.all(ns, documentId),
    putTerm: (ns: number, id: number, term: string) => void putTerm.run(ns, id, term),
    putChunk: (ns: number, { seq, chunkId, documentId, length, terms }: ChunkRecord) => void putChunk.run(ns, seq, chunkId, documentId, length, terms),
    dropChunk: (ns: number, chunkId: string) => void dropChunk.run(ns, chunkId),
    dropDocument: (ns: number, documentId: string) => void dropDocument.run(ns, documentId),
    dropNamespace: (ns: number) => dropNamespace.forEach((s) => s.run(ns)),
    count: (ns: number) => countChunks.get(ns)?.n ?? 0,
    ping: () => void ping.get(),
    /** The analyzer version that wrote the stored terms; null in a data directory from before versions were kept. */
    analyzerVersion: () => getMeta.get('analyzer')?.value ?? null,
    setAnalyzerVersion: (version: string) => void setMeta.run('analyzer', version),
    isEmpty: () => anyChunk.get() === undefined,
    /** Every (namespace, document) with chunks, in that order, after the given pair. */
    documentsAfter: (namespace: string, documentId: string, limit: number) => documentsAfter.all(namespace, documentId, limit),
  };
}

export type KeywordStore = ReturnType<typeof createKeywordStore>;
