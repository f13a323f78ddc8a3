import { z } from 'zod';
import { DocumentMetadata } from '../events/document.ts';
import { DocumentStatus } from '../lifecycles.ts';

/**
 * A document as the documents projection stores it (projections/documents): the one declaration
 * of its fields, from which the projection takes its type and the API its Document schema.
 */
/** One version of a document as the documents projection keeps it (issue 44): what its history lists. */
export const DocumentVersionDoc = z.object({
  version: z.int().min(1),
  name: z.string(),
  media_type: z.string(),
  size_bytes: z.int(),
  sha256: z.string(),
  /** The key that uploaded it; null in events from before issue 44. */
  uploaded_by: z.string().nullable(),
  /** Its processing: queued → parsing → indexing → ready | failed; `superseded` once a newer version answers in its place; `purged` once retention (keep_versions) removed it. */
  status: z.enum(['queued', 'parsing', 'indexing', 'ready', 'failed', 'superseded', 'purged']),
  page_count: z.int().nullable(),
  chunk_count: z.int().nullable(),
  /** Chunks whose embeddings, postings and entities came from an earlier version (0 for version 1). */
  reused_chunk_count: z.int().nullable(),
  index_ms: z.int().nullable(),
  created_at: z.string(),
  /** When it became the answering version, and when a newer one replaced it (null: not yet). */
  current_from: z.string().nullable(),
  superseded_at: z.string().nullable(),
  /** When retention purged it (its bytes and chunks are gone); absent while it is kept. */
  purged_at: z.string().optional(),
});
export type DocumentVersionDoc = z.infer<typeof DocumentVersionDoc>;

export const DocumentDoc = z.object({
  id: z.string(),
  object: z.literal('document'),
  workspace_id: z.string(),
  knowledge_base_id: z.string(),
  name: z.string(),
  media_type: z.string(),
  size_bytes: z.int(),
  sha256: z.string(),
  status: DocumentStatus,
  metadata: DocumentMetadata,
  chunking: z.object({ max_tokens: z.int(), overlap_tokens: z.int() }),
  /** The email it was attached to (absent for uploads, and in documents projected before issue 15). */
  parent_document_id: z.string().optional(),
  page_count: z.int().nullable(),
  /** Set by the parse: absent before it, and in documents projected before issue 15. */
  page_estimated: z
    .boolean()
    .describe('True when the file does not say where its pages break (a Word file never laid out by Word): page_count and chunk pages are then estimated from the amount of text')
    .optional(),
  chunk_count: z.int().nullable(),
  ocr_pages: z.array(z.int()),
  warnings: z.array(z.string()),
  error: z
    .object({
      stage: z.string(),
      code: z.string().describe('Why, for a program: one of the codes in docs/api/documents.md (encrypted, corrupt, too_large, empty …)'),
      message: z.string().describe('Why, in one English sentence that says what to do'),
      detail: z.string().optional().describe('What was particular to this file (its page count, what the reader said), when there is something'),
    })
    .nullable(),
  timings: z.object({
    parse_ms: z.int().nullable(),
    index_ms: z.int().nullable(),
    parsing_started_at: z.string().nullable(),
    parsed_at: z.string().nullable(),
    indexed_at: z.string().nullable(),
  }),
  /** The id a source gave it (issue 44); absent when none was given. */
  external_id: z.string().optional(),
  /** The newest version, and the one answering (0 until one is ready); absent in documents projected before issue 44 (see presentDocument). */
  version: z.int().optional(),
  current_version: z.int().optional(),
  /** Every version, oldest first; absent in documents projected before issue 44. */
  versions: z.array(DocumentVersionDoc).optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DocumentDoc = z.infer<typeof DocumentDoc>;
