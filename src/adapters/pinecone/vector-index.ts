import { type Index, Pinecone } from '@pinecone-database/pinecone';
import { type Backoff, backoffDelay, PermanentError, sleep } from '../../lib/retry.ts';
import type { VectorIndex } from '../../ports/vector-index.ts';
import {
  bestMatches,
  checkIndex,
  type ChunkMetadata,
  classifyPineconeError,
  documentFilters,
  documentPrefix,
  inBatches,
  isNotFound,
  LIST_PAGE,
  lastPerChunk,
  MAX_IDS_PER_DELETE,
  MAX_TOP_K,
  safeBatchSize,
  toPineconeRecord,
  vectorProblem,
} from './records.ts';

export type PineconeVectorIndexOptions = { apiKey: string; indexName: string; indexHost?: string; batchSize?: number; client?: Pinecone };

type Target = { index: Index<ChunkMetadata>; dimension: number; batchSize: number; podBased: boolean };

/** Pinecone's rate limits are per second, so waits start at half a second. */
const BACKOFF: Backoff = { attempts: 5, baseMs: 500, maxMs: 8_000 };

/** For deletes: a namespace that was never written, or is gone already, holds nothing to delete. */
const ignoreMissing = (error: unknown): undefined => {
  if (isNotFound(error)) return undefined;
  throw error;
};

/**
 * Cosine k-NN in one Pinecone index, a Pinecone namespace per knowledge base. Record ids are
 * `<document>#<chunk>`, so a document's records are found by listing an id prefix, which serverless
 * indexes support where deleting by metadata may not be. Pinecone is eventually consistent:
 * a write returns before queries, listings and counts see it.
 */
export function createPineconeVectorIndex(options: PineconeVectorIndexOptions): VectorIndex {
  // Retries happen here, with backoff and for 429 too; the client's own would multiply them.
  const client = options.client ?? new Pinecone({ apiKey: options.apiKey, maxRetries: 0 });
  const name = options.indexName;
  const call = <T>(what: string, run: () => Promise<T>) => withRetries(`Pinecone ${what} on index "${name}"`, run);

  let target: Promise<Target> | undefined;
  /** The index checked once; a failed check is not kept, so a fixed index or a passing outage is seen on the next call. */
  const connect = () =>
    (target ??= open().catch((error: unknown) => {
      target = undefined;
      throw error;
    }));

  async function open(): Promise<Target> {
    const model = await call('describe', () => client.describeIndex(name));
    const checked = checkIndex(model);
    if ('problem' in checked) throw new PermanentError(`Pinecone index "${name}" ${checked.problem}`);
    if (!model.status.ready) throw new Error(`Pinecone index "${name}" is not ready (${model.status.state})`);
    return {
      index: client.index<ChunkMetadata>({ name, host: options.indexHost ?? model.host }),
      dimension: checked.dimension,
      batchSize: safeBatchSize(checked.dimension, options.batchSize),
      // The SDK's spec holds every kind's key, those not of this index undefined.
      podBased: 'pod' in model.spec && model.spec.pod !== undefined,
    };
  }

  const rejectBadVector = (values: Float32Array, dimension: number, what: string) => {
    const problem = vectorProblem(values, dimension);
    if (problem) throw new PermanentError(`The vector of ${what} ${problem}; Pinecone index "${name}" has dimension ${dimension}`);
  };

  async function listIds(index: Index<ChunkMetadata>, namespace: string, prefix: string): Promise<string[]> {
    const ids: string[] = [];
    let paginationToken: string | undefined;
    do {
      const token = paginationToken;
      const page = await call('list', () =>
        index.listPaginated({ namespace, prefix, limit: LIST_PAGE, ...(token && { paginationToken: token }) }).catch(ignoreMissing),
      );
      for (const item of page?.vectors ?? []) if (item.id) ids.push(item.id);
      paginationToken = page?.pagination?.next;
    } while (paginationToken);
    return ids;
  }

  return {
    async upsert(namespace, records) {
      if (records.length === 0) return;
      const { index, dimension, batchSize } = await connect();
      const unique = lastPerChunk(records);
      for (const r of unique) rejectBadVector(r.values, dimension, `chunk ${r.id} of document ${r.documentId}`);
      for (const batch of inBatches(unique, batchSize)) {
        await call('upsert', () => index.upsert({ namespace, records: batch.map(toPineconeRecord) }));
      }
    },
    async deleteByDocument(namespace, documentId) {
      const { index, podBased } = await connect();
      // Pod-based indexes cannot list ids, but can delete by metadata.
      if (podBased) {
        const [filter] = documentFilters([documentId]);
        await call('delete', () => index.deleteMany({ namespace, filter }).catch(ignoreMissing));
        return;
      }
      // Listing shows only what is visible already: a record written moments ago may be missed.
      const ids = await listIds(index, namespace, documentPrefix(documentId));
      for (const batch of inBatches(ids, MAX_IDS_PER_DELETE)) {
        await call('delete', () => index.deleteMany({ namespace, ids: batch }).catch(ignoreMissing));
      }
    },
    async deleteChunks(namespace, chunkIds) {
      if (chunkIds.length === 0) return;
      const { index } = await connect();
      for (const batch of inBatches([...chunkIds], MAX_IDS_PER_DELETE)) {
        await call('delete', () => index.deleteMany({ namespace, ids: batch }).catch(ignoreMissing));
      }
    },
    async deleteNamespace(namespace) {
      const { index } = await connect();
      await call('delete namespace', () => index.deleteAll({ namespace }).catch(ignoreMissing));
    },
    async query(namespace, vector, topK, filter) {
      const k = Math.min(Math.floor(topK), MAX_TOP_K);
      if (!(k >= 1)) return [];
      const documentIds = filter?.documentIds;
      if (documentIds?.length === 0) return [];
      const { index, dimension } = await connect();
      rejectBadVector(vector, dimension, 'the query');
      const values = Array.from(vector);
      const filters = documentIds ? documentFilters(documentIds) : [undefined];
      const answers = await Promise.all(
        filters.map((f) => call('query', () => index.query({ namespace, vector: values, topK: k, includeMetadata: true, ...(f && { filter: f }) }))),
      );
      return bestMatches(answers.map((a) => a.matches), k);
    },
    async count(namespace) {
      const { index } = await connect();
      // Eventually consistent: a count taken right after a write may not include it yet.
      const stats = await call('describe index stats', () => index.describeIndexStats());
      return stats.namespaces?.[namespace]?.recordCount ?? 0;
    },
    async ping() {
      const { index } = await connect();
      await call('describe index stats', () => index.describeIndexStats());
    },
  };
}

/**
 * Retries what may pass (429, 5xx, no connection) with backoff, then gives up retriable; what no
 * retry can fix (other 4xx, bad arguments) becomes a PermanentError at once, so consumers park it.
 */
async function withRetries<T>(what: string, run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const failure = classifyPineconeError(error);
      if (failure === 'retriable' && attempt < BACKOFF.attempts) {
        await sleep(backoffDelay(attempt, BACKOFF));
        continue;
      }
      const reason = error instanceof Error ? error.message : String(error);
      if (failure === 'permanent') throw new PermanentError(`${what} failed: ${reason}`, { cause: error });
      if (failure === 'retriable') throw new Error(`${what} failed ${attempt} times: ${reason}`, { cause: error });
      throw error;
    }
  }
}
