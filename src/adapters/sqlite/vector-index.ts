import type { VectorIndex, VectorRecord } from '../../ports/vector-index.ts';
import { immediate, type SqliteDatabase } from './database.ts';
import type { Resident } from './index-memory.ts';
import { vectorBytes } from './index-footprint.ts';
import { encoderFor } from './vector-codes.ts';
import { createMirror, type Mirror, type MirrorOptions } from './vector-mirror.ts';
import { asBlob, prepareVectorSchema } from './vector-schema.ts';

const MAX_DIMS = 8192;

/** What this process holds in memory for one namespace, and the version it reflects. */
type Loaded = { version: number; mirrors: Map<number, Mirror> };

/**
 * Cosine k-NN over vectors persisted in SQLite and searched in memory: each namespace's
 * compressed copy (vector-mirror.ts) is loaded on its first query and then kept in step with
 * this process's writes. Every write bumps the namespace's version in the same transaction, and
 * every query compares it, so a copy that missed a write (another connection, a rolled-back
 * outer transaction) is dropped and reloaded instead of answering stale.
 */
export function createSqliteVectorIndex(db: SqliteDatabase, options: MirrorOptions = {}): VectorIndex & Resident {
  prepareVectorSchema(db);
  const versionOf = db.prepare<[string], { version: number }>('SELECT version FROM vector_namespaces WHERE namespace = ?');
  const bump = db.prepare<[string], { version: number }>(
    'INSERT INTO vector_namespaces (namespace, version) VALUES (?, 1) ON CONFLICT (namespace) DO UPDATE SET version = version + 1 RETURNING version',
  );
  const putChunk = db.prepare<[string, string, string, number, Buffer], { id: number }>(`
    INSERT INTO vector_chunks (namespace, chunk_id, document_id, dims, codes) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (namespace, chunk_id) DO UPDATE SET document_id = excluded.document_id, dims = excluded.dims, codes = excluded.codes
    RETURNING id`);
  const putEmbedding = db.prepare('INSERT OR REPLACE INTO vector_embeddings (id, embedding) VALUES (?, ?)');
  const chunksOfDocument = db.prepare<[string, string], { chunk_id: string }>('SELECT chunk_id FROM vector_chunks WHERE namespace = ? AND document_id = ?');
  const deleteDocument = db.prepare('DELETE FROM vector_chunks WHERE namespace = ? AND document_id = ?');
  const deleteNamespace = db.prepare('DELETE FROM vector_chunks WHERE namespace = ?');
  const deleteChunk = db.prepare('DELETE FROM vector_chunks WHERE namespace = ? AND chunk_id = ?');
  const countRows = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM vector_chunks WHERE namespace = ?');
  const countWidth = db.prepare<[string, number], { n: number }>('SELECT count(*) AS n FROM vector_chunks WHERE namespace = ? AND dims = ?');
  const rowsOfWidth = db.prepare<[string, number], { chunk_id: string; document_id: string; codes: Buffer }>(
    'SELECT chunk_id, document_id, codes FROM vector_chunks WHERE namespace = ? AND dims = ?',
  );
  const chunksOfDocuments = db.prepare<[string, number, string], { chunk_id: string }>(
    'SELECT chunk_id FROM vector_chunks WHERE namespace = ? AND dims = ? AND document_id IN (SELECT value FROM json_each(?))',
  );
  const ping = db.prepare("SELECT 1 FROM vector_settings WHERE key = 'code_format'");

  const loaded = new Map<string, Loaded>();
  const version = (namespace: string) => versionOf.get(namespace)?.version ?? 0;

  const load = (namespace: string, dims: number): Mirror => {
    const mirror = createMirror(dims, options);
    mirror.reserve(countWidth.get(namespace, dims)!.n);
    for (const row of rowsOfWidth.iterate(namespace, dims)) mirror.put(row.chunk_id, row.document_id, row.codes);
    return mirror;
  };

  /** The namespace's copy for one width, current with the database, loading what is missing. */
  const mirrorFor = (namespace: string, dims: number): Mirror => {
    let state = loaded.get(namespace);
    const mirror = state?.version === version(namespace) ? state.mirrors.get(dims) : undefined;
    if (mirror) return mirror;
    // One read transaction, so that the rows loaded are those of the version recorded.
    return db.transaction(() => {
      const current = version(namespace);
      if (!state || state.version !== current) loaded.set(namespace, (state = { version: current, mirrors: new Map() }));
      const fresh = load(namespace, dims);
      state.mirrors.set(dims, fresh);
      return fresh;
    })();
  };

  /**
   * Runs `write` in a transaction that bumps the namespace's version, then brings the loaded
   * copy along with `follow`, or drops it if it had already fallen behind.
   */
  const writing = (namespace: string, write: () => boolean, follow: (state: Loaded) => void) => {
    const change = immediate(db, () => {
      const before = version(namespace);
      return write() ? { before, after: bump.get(namespace)!.version } : undefined;
    });
    const state = loaded.get(namespace);
    if (!change || !state) return;
    if (state.version !== change.before) return void loaded.delete(namespace);
    follow(state);
    state.version = change.after;
  };

  return {
    async upsert(namespace, records) {
      const encoded = records.map((record) => ({ record, codes: encoderFor(checkedWidth(record.values.length)).encode(record.values) }));
      writing(
        namespace,
        () => {
          for (const { record, codes } of encoded) {
            const { id } = putChunk.get(namespace, record.id, record.documentId, record.values.length, asBlob(codes))!;
            putEmbedding.run(id, asBlob(record.values));
          }
          return encoded.length > 0;
        },
        (state) => {
          for (const { record, codes } of encoded) followUpsert(state, record, codes);
        },
      );
    },
    async deleteByDocument(namespace, documentId) {
      let chunkIds: string[] = [];
      writing(
        namespace,
        () => {
          chunkIds = chunksOfDocument.all(namespace, documentId).map((row) => row.chunk_id);
          deleteDocument.run(namespace, documentId);
          return chunkIds.length > 0;
        },
        (state) => {
          for (const mirror of state.mirrors.values()) for (const id of chunkIds) mirror.remove(id);
        },
      );
    },
    async deleteChunks(namespace, chunkIds) {
      const removed: string[] = [];
      writing(
        namespace,
        () => {
          for (const id of chunkIds) if (deleteChunk.run(namespace, id).changes > 0) removed.push(id);
          return removed.length > 0;
        },
        (state) => {
          for (const mirror of state.mirrors.values()) for (const id of removed) mirror.remove(id);
        },
      );
    },
    async deleteNamespace(namespace) {
      writing(namespace, () => deleteNamespace.run(namespace).changes > 0, (state) => state.mirrors.clear());
    },
    async query(namespace, vector, topK, filter) {
      if (topK < 1) return [];
      const documentIds = filter?.documentIds;
      if (documentIds && documentIds.length === 0) return [];
      const dims = checkedWidth(vector.length);
      const mirror = mirrorFor(namespace, dims);
      if (mirror.size === 0) return [];
      if (!documentIds) return mirror.search(vector, topK);
      const within: number[] = [];
      for (const row of chunksOfDocuments.all(namespace, dims, JSON.stringify(documentIds))) {
        const slot = mirror.slotOf(row.chunk_id);
        if (slot !== undefined) within.push(slot);
      }
      return within.length === 0 ? [] : mirror.search(vector, topK, within);
    },
    async count(namespace) {
      return countRows.get(namespace)?.n ?? 0;
    },
    async ping() {
      ping.get();
    },
    footprint(namespace) {
      let bytes = 0;
      for (const mirror of loaded.get(namespace)?.mirrors.values() ?? []) bytes += mirror.size * vectorBytes(mirror.dims);
      return bytes;
    },
    unload(namespace) {
      loaded.delete(namespace);
    },
  };
}

/** A chunk keeps one width: re-embedding it with another model moves it between copies. */
function followUpsert(state: Loaded, record: VectorRecord, codes: Uint8Array) {
  const dims = record.values.length;
  for (const mirror of state.mirrors.values()) {
    if (mirror.dims === dims) mirror.put(record.id, record.documentId, codes);
    else mirror.remove(record.id);
  }
}

function checkedWidth(dims: number): number {
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_DIMS) throw new Error(`unsupported vector width ${dims}`);
  return dims;
}
