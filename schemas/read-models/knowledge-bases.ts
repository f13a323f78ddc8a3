import { z } from 'zod';
import { VectorStoreSettings } from '../events/knowledge-base.ts';
import { KnowledgeBaseSettings } from '../knowledge-base-settings.ts';

/**
 * The knowledge base's last re-index as its events tell it: `queued` from the request until the
 * reindexer's end (its progress meanwhile is the operational record `reindex_progress`).
 */
export const ReindexRecord = z.object({
  id: z.string(),
  status: z.enum(['queued', 'succeeded', 'failed']),
  embedding_model: z.string(),
  requested_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  documents: z.int().nullable(),
  chunks: z.int().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type ReindexRecord = z.infer<typeof ReindexRecord>;

/** A knowledge base as the knowledge-bases projection stores it (projections/knowledge-bases). */
export const KnowledgeBaseDoc = z.object({
  id: z.string(),
  object: z.literal('knowledge_base'),
  workspace_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  settings: KnowledgeBaseSettings,
  /** Set through the vector-store API only (absent otherwise). */
  vector_store: VectorStoreSettings.optional(),
  /** Absent until a re-index is asked for over the API. */
  reindex: ReindexRecord.optional(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Revision of the knowledge base's stream: the ETag clients send back in If-Match. */
  revision: z.int(),
});
export type KnowledgeBaseDoc = z.infer<typeof KnowledgeBaseDoc>;

/** A knowledge base's counts, kept apart as totals of the documents read model (app/services/knowledge-base-totals.ts). */
export const KnowledgeBaseTotals = z.object({ document_count: z.int(), chunk_count: z.int() });
export type KnowledgeBaseTotals = z.infer<typeof KnowledgeBaseTotals>;
