import { z } from 'zod';
import { KnowledgeBaseSettings } from '../knowledge-base-settings.ts';

/** What a client of the vector-store API set that only it reads back: its metadata and expiry (kept, never acted on). Absent: never set. */
export const VectorStoreSettings = z.strictObject({
  metadata: z.record(z.string(), z.string()).nullable(),
  expires_after: z.strictObject({ anchor: z.literal('last_active_at'), days: z.int() }).nullable(),
});

export const KnowledgeBaseCreated = z.strictObject({
  knowledge_base_id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  settings: KnowledgeBaseSettings,
  vector_store: VectorStoreSettings.optional(),
  created_at: z.iso.datetime(),
});

/** Carries the full new state of what changed, so a projection needs no merge logic. */
export const KnowledgeBaseUpdated = z.strictObject({
  knowledge_base_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  settings: KnowledgeBaseSettings,
  vector_store: VectorStoreSettings.optional(),
  updated_at: z.iso.datetime(),
});

export const KnowledgeBaseDeleted = z.strictObject({ knowledge_base_id: z.string(), deleted_at: z.iso.datetime() });

/**
 * A re-index was asked for (POST /v1/knowledge-bases/{id}/reindex): the reindexer consumer
 * re-embeds the knowledge base's ready documents with `embedding_model`, its model at the time.
 */
export const KnowledgeBaseReindexRequested = z.strictObject({
  knowledge_base_id: z.string(),
  reindex_id: z.string(),
  embedding_model: z.string(),
  requested_at: z.iso.datetime(),
});

/** The re-index named finished: every ready document it found re-embedded. */
export const KnowledgeBaseReindexed = z.strictObject({
  knowledge_base_id: z.string(),
  reindex_id: z.string(),
  documents: z.int(),
  chunks: z.int(),
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime(),
});

/** The re-index named stopped for good (its model gone, a provider refusing …); a new request starts again. */
export const KnowledgeBaseReindexFailed = z.strictObject({
  knowledge_base_id: z.string(),
  reindex_id: z.string(),
  code: z.string(),
  message: z.string(),
  failed_at: z.iso.datetime(),
});

export const knowledgeBaseEvents = {
  KnowledgeBaseCreated,
  KnowledgeBaseUpdated,
  KnowledgeBaseDeleted,
  KnowledgeBaseReindexRequested,
  KnowledgeBaseReindexed,
  KnowledgeBaseReindexFailed,
} as const;
