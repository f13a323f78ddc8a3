import { z } from 'zod';
import { OCR_MODELS } from '../ocr-languages.ts';

export const DocumentStage = z.enum(['upload', 'parsing', 'indexing']);

export const ChunkingSettings = z.strictObject({ max_tokens: z.int().min(32).max(8192), overlap_tokens: z.int().min(0).max(4096) });

export const MetadataValue = z.union([z.string().max(1000), z.number(), z.boolean()]);
export const DocumentMetadata = z.record(z.string().min(1).max(100), MetadataValue);

/** One line of a chunk on its page: fractions of the page's width and height from its top left, `start` the line's offset in the chunk text. */
export const PageBox = z.strictObject({ x0: z.number(), y0: z.number(), x1: z.number(), y1: z.number(), start: z.int().min(0) });

export const ChunkRecord = z.strictObject({
  chunk_id: z.string(),
  index: z.int().min(0),
  page: z.int().min(1),
  text: z.string(),
  heading_path: z.array(z.string()),
  char_start: z.int().min(0),
  char_end: z.int().min(0),
  token_count: z.int().min(0),
  /** Absent for formats without layout and in chunks parsed before boxes were kept. */
  boxes: z.array(PageBox).optional(),
});

const ids = { document_id: z.string(), knowledge_base_id: z.string() };

export const DocumentUploaded = z.strictObject({
  ...ids,
  workspace_id: z.string(),
  name: z.string(),
  media_type: z.string(),
  size_bytes: z.int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  metadata: DocumentMetadata,
  chunking: ChunkingSettings,
  /** Set on a document the service made from a file inside another (an email's attachment): that document's id. */
  parent_document_id: z.string().optional(),
  /** Models to OCR scans with, from the upload or its knowledge base; absent: detected per page. */
  ocr_languages: z.array(z.enum(OCR_MODELS)).min(1).optional(),
  /** The key (principal) that uploaded it; absent in events from before issue 44. */
  uploaded_by: z.string().optional(),
  /** The id a source gave the document (issue 44): a later upload with the same one becomes its next version. */
  external_id: z.string().min(1).max(500).optional(),
  uploaded_at: z.iso.datetime(),
});

/**
 * The version a parse or index event belongs to (issue 44). DocumentUploaded is version 1, and
 * events recorded before versions existed, which lack the field, are version 1 too: read as such.
 */
const version = { version: z.int().min(1).optional() };

/**
 * New content for a live document: version `version` (2, 3, …), with its own bytes (the blob
 * store's key is the sha256, as for DocumentUploaded), and the parse settings it is parsed with.
 * The previous current version keeps answering until this one is indexed (DocumentVersionSuperseded).
 */
export const DocumentVersionAdded = z.strictObject({
  ...ids,
  workspace_id: z.string(),
  version: z.int().min(2),
  name: z.string(),
  media_type: z.string(),
  size_bytes: z.int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The blob store's key of the bytes (today the sha256: blobs are content-addressed). */
  blob: z.string(),
  chunking: ChunkingSettings,
  ocr_languages: z.array(z.enum(OCR_MODELS)).min(1).optional(),
  /** The key (principal) that added it. */
  uploaded_by: z.string(),
  added_at: z.iso.datetime(),
});

/**
 * The switch: `superseded_by` became the answering version in place of `version`, at the moment
 * the new one was indexed (appended with its DocumentIndexed). The old version's chunks that the
 * new one does not share are then removed from every index.
 */
export const DocumentVersionSuperseded = z.strictObject({
  ...ids,
  version: z.int().min(1),
  superseded_by: z.int().min(2),
  superseded_at: z.iso.datetime(),
});

/**
 * Retention (the knowledge base's keep_versions): an old version is gone for good. Its bytes are
 * deleted from the blob store (unless a kept version has the same), its chunks leave every index,
 * and an as_of at a time it answered is refused (410 version_purged) instead of answered without it.
 */
export const DocumentVersionPurged = z.strictObject({
  ...ids,
  version: z.int().min(1),
  purged_at: z.iso.datetime(),
});

export const DocumentParsingStarted = z.strictObject({ ...ids, ...version, attempt: z.int().min(1), started_at: z.iso.datetime() });

/**
 * Chunk text travels in the log (so a replay can rebuild every index), in batches well under 512 KB,
 * in a stream of its own per parse attempt (`document_chunks-{document id}-{attempt}`), so the
 * document's stream holds only its lifecycle. (Data directories from before issue 13 hold them in
 * the document's stream, with the same data; readers take both.)
 */
export const DocumentChunksExtracted = z.strictObject({
  ...ids,
  attempt: z.int().min(1),
  batch_index: z.int().min(0),
  batch_count: z.int().min(1),
  chunks: z.array(ChunkRecord),
});

/**
 * A parse's commit record, appended after its chunk stream: the attempt names that stream, and
 * batch_count and chunk_count what it holds. A chunk stream without it (the parser died between the
 * two appends) belongs to an interrupted attempt, and nothing reads it.
 */
export const DocumentParsed = z.strictObject({
  ...ids,
  ...version,
  attempt: z.int().min(1),
  media_type: z.string(),
  page_count: z.int().min(0),
  /** The file does not say where its pages break, so page numbers are estimated (absent in events from before issue 15: known). */
  page_estimated: z.boolean().optional(),
  chunk_count: z.int().min(0),
  batch_count: z.int().min(0),
  ocr_pages: z.array(z.int()),
  warnings: z.array(z.string()),
  parse_ms: z.int().min(0),
  parsed_at: z.iso.datetime(),
});

export const DocumentIndexed = z.strictObject({
  ...ids,
  ...version,
  /** Chunks of this version whose embeddings, postings and entities were reused from an earlier version (absent before issue 44: none). */
  reused_chunk_count: z.int().min(0).optional(),
  chunk_count: z.int().min(0),
  entity_count: z.int().min(0),
  embedding_model: z.string(),
  index_ms: z.int().min(0),
  indexed_at: z.iso.datetime(),
});

export const DocumentFailed = z.strictObject({
  ...ids,
  ...version,
  stage: DocumentStage,
  /** One of src/domain/document/failures.ts's codes (events from before it may hold others: the API reports them upgraded). */
  code: z.string(),
  /** The catalogue's sentence for the code when it was recorded. */
  message: z.string(),
  /** What was particular to this failure (a page count, the library's complaint), scrubbed of paths; absent in events from before issue 43. */
  detail: z.string().optional(),
  failed_at: z.iso.datetime(),
});

export const DocumentDeleted = z.strictObject({
  ...ids,
  /**
   * What the read models must take back: the chunks the knowledge base counted. (batch_count, the
   * parse's batches, is what a chunk_batches read model dropped until the chunk list read passages.)
   */
  batch_count: z.int().min(0),
  indexed_chunk_count: z.int().min(0),
  sha256: z.string(),
  /** Every version's bytes (issue 44), whose content claims the deletion releases; absent: only sha256. */
  version_sha256s: z.array(z.string()).optional(),
  /** The name (or external id) claim the document held, released with it (issue 44). */
  name_key: z.string().optional(),
  deleted_at: z.iso.datetime(),
});

/** New metadata for a document, replacing the old (a vector-store file's attributes, updated): filters read it at once, no re-index. */
export const DocumentMetadataUpdated = z.strictObject({
  ...ids,
  metadata: DocumentMetadata,
  updated_at: z.iso.datetime(),
});

/** The events of a document's stream: its lifecycle, no chunk text. */
export const documentEvents = {
  DocumentUploaded,
  DocumentVersionAdded,
  DocumentVersionSuperseded,
  DocumentVersionPurged,
  DocumentParsingStarted,
  DocumentParsed,
  DocumentIndexed,
  DocumentFailed,
  DocumentDeleted,
  DocumentMetadataUpdated,
} as const;

/** The events of one parse attempt's chunk stream: the attempt's chunks, batch by batch. */
export const documentChunkEvents = { DocumentChunksExtracted } as const;

/** Claims on content and on idempotency keys: first writer wins, others learn who won. */
export const DocumentContentClaimed = z.strictObject({ knowledge_base_id: z.string(), sha256: z.string(), document_id: z.string() });
export const DocumentContentReleased = z.strictObject({ knowledge_base_id: z.string(), sha256: z.string(), document_id: z.string() });
export const contentClaimEvents = { DocumentContentClaimed, DocumentContentReleased } as const;

/** Claims on a document's name (or external id) in a knowledge base: a later upload under it becomes the holder's next version. */
export const DocumentNameClaimed = z.strictObject({ knowledge_base_id: z.string(), key: z.string(), document_id: z.string() });
export const DocumentNameReleased = z.strictObject({ knowledge_base_id: z.string(), key: z.string(), document_id: z.string() });
export const nameClaimEvents = { DocumentNameClaimed, DocumentNameReleased } as const;

export const IdempotencyKeyClaimed = z.strictObject({ workspace_id: z.string(), key: z.string(), fingerprint: z.string(), claimed_at: z.iso.datetime() });
export const IdempotentRequestCompleted = z.strictObject({ workspace_id: z.string(), key: z.string(), status: z.int(), resource_ids: z.array(z.string()) });
export const idempotencyEvents = { IdempotencyKeyClaimed, IdempotentRequestCompleted } as const;
