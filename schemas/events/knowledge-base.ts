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

export const knowledgeBaseEvents = { KnowledgeBaseCreated, KnowledgeBaseUpdated, KnowledgeBaseDeleted } as const;
