import type { PineconeRecord, ScoredPineconeRecord } from '@pinecone-database/pinecone';
import type { VectorMatch, VectorRecord } from '../../ports/vector-index.ts';

/** Stored with every vector so that queries can be filtered by document. */
export type ChunkMetadata = { document_id: string };

export const MAX_TOP_K = 10_000;
export const MAX_IDS_PER_DELETE = 1_000;
/** Pinecone's largest page of listed ids. */
export const LIST_PAGE = 100;
const MAX_RECORDS_PER_UPSERT = 1_000;
const MAX_VALUES_PER_IN = 10_000;
/** Three quarters of Pinecone's 2 MB upsert request limit. */
const UPSERT_BYTE_BUDGET = 1_500_000;
/** The longest JSON of a float32 widened to a double, with its comma: `-0.0000067190399022365455,`. */
const BYTES_PER_VALUE = 26;
/** An id (Pinecone caps them at 512 characters), its document part again as metadata (at most twice as long JSON-escaped), and the JSON around them. */
const BYTES_PER_RECORD = 2_048;

const UNSAFE = /[%#]|[^\x20-\x7e]/gu;
const utf8 = new TextEncoder();
/** Percent-encodes `%`, `#` and anything outside printable ASCII, which Pinecone ids may not hold. */
const escapePart = (part: string) =>
  part.replace(UNSAFE, (c) => Array.from(utf8.encode(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));

/** `<document>#<chunk>`: with `#` escaped inside the parts, `<document>#` prefixes this document's ids and no other's. */
export const encodeRecordId = (documentId: string, chunkId: string) => `${escapePart(documentId)}#${escapePart(chunkId)}`;

export const documentPrefix = (documentId: string) => `${escapePart(documentId)}#`;

/** Undefined for ids this adapter did not write. */
export function decodeRecordId(id: string): { documentId: string; chunkId: string } | undefined {
  const split = id.indexOf('#');
  if (split < 0) return undefined;
  try {
    return { documentId: decodeURIComponent(id.slice(0, split)), chunkId: decodeURIComponent(id.slice(split + 1)) };
  } catch {
    return undefined;
  }
}

export const toPineconeRecord = (record: VectorRecord): PineconeRecord<ChunkMetadata> => ({
  id: encodeRecordId(record.documentId, record.id),
  values: Array.from(record.values),
  metadata: { document_id: record.documentId },
});

/** One record per chunk, the last given winning, as a sequence of upserts would leave it. */
export const lastPerChunk = (records: readonly VectorRecord[]) => [...new Map(records.map((r) => [r.id, r])).values()];

/** Records per upsert request that stay within Pinecone's limits whatever the values; `requested` may only lower it. */
export function safeBatchSize(dimension: number, requested?: number): number {
  const fits = Math.floor(UPSERT_BYTE_BUDGET / (dimension * BYTES_PER_VALUE + BYTES_PER_RECORD));
  const safe = Math.max(1, Math.min(MAX_RECORDS_PER_UPSERT, fits));
  return requested !== undefined && requested >= 1 ? Math.min(safe, Math.floor(requested)) : safe;
}

export function inBatches<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}

/** One metadata filter per query; more than one when the ids exceed what a single `$in` may list. */
export const documentFilters = (documentIds: readonly string[]) =>
  inBatches([...new Set(documentIds)], MAX_VALUES_PER_IN).map((ids) => ({ document_id: { $in: ids } }));

/** Best first across the answers of one or more queries; matches this adapter did not write are skipped. */
export function bestMatches(answers: ReadonlyArray<ReadonlyArray<ScoredPineconeRecord<ChunkMetadata>>>, topK: number): VectorMatch[] {
  const matches: VectorMatch[] = [];
  for (const answer of answers) {
    for (const match of answer) {
      const parts = decodeRecordId(match.id);
      if (!parts || typeof match.score !== 'number') continue;
      const documentId = typeof match.metadata?.document_id === 'string' ? match.metadata.document_id : parts.documentId;
      matches.push({ id: parts.chunkId, documentId, score: match.score });
    }
  }
  return matches.sort((a, b) => b.score - a.score).slice(0, topK);
}

/** Why Pinecone would refuse this vector, or undefined. */
export function vectorProblem(values: Float32Array, dimension: number): string | undefined {
  if (values.length !== dimension) return `has ${values.length} dimensions`;
  if (!values.every(Number.isFinite)) return 'has a value that is not a finite number';
  if (values.every((x) => x === 0)) return 'is all zeros, which has no cosine similarity';
  return undefined;
}

type IndexDescription = { metric: string; dimension?: number; vectorType?: string };

/** The dimension of an index this adapter can use, or why it cannot. */
export function checkIndex(model: IndexDescription): { dimension: number } | { problem: string } {
  if (model.metric !== 'cosine') return { problem: `uses the ${model.metric} metric; this service needs cosine` };
  if (model.vectorType === 'sparse' || !model.dimension) return { problem: 'is not a dense vector index' };
  return { dimension: model.dimension };
}

export type Failure = 'retriable' | 'permanent' | 'unknown';

const RETRIABLE = new Set(['PineconeConnectionError', 'PineconeMaxRetriesExceededError', 'PineconeInternalServerError', 'PineconeUnavailableError']);
const PERMANENT = new Set([
  'PineconeArgumentError',
  'PineconeAuthorizationError',
  'PineconeBadRequestError',
  'PineconeConfigurationError',
  'PineconeConflictError',
  'PineconeMethodNotAllowedError',
  'PineconeNotFoundError',
  'PineconeNotImplementedError',
  'PineconeUnprocessableEntityError',
]);

/** By name, not class: the SDK's errors are matched without importing it, and survive being re-thrown from other copies. */
export function classifyPineconeError(error: unknown): Failure {
  if (!(error instanceof Error)) return 'unknown';
  if (RETRIABLE.has(error.name)) return 'retriable';
  if (PERMANENT.has(error.name)) return 'permanent';
  const status = statusOf(error);
  if (status === undefined) return 'unknown';
  if (status === 408 || status === 429 || status >= 500) return 'retriable';
  return status >= 400 ? 'permanent' : 'unknown';
}

export const isNotFound = (error: unknown) => error instanceof Error && (error.name === 'PineconeNotFoundError' || statusOf(error) === 404);

/** The SDK names the statuses it knows; any other (429, 502, 504…) comes as PineconeUnmappedHttpError with the status in its message only. */
function statusOf(error: Error): number | undefined {
  const own: unknown = (error as { status?: unknown }).status;
  if (typeof own === 'number') return own;
  if (error.name !== 'PineconeUnmappedHttpError') return undefined;
  const match = /\bStatus: (\d{3})\b/.exec(error.message);
  return match ? Number(match[1]) : undefined;
}
