import { z } from 'zod';
import { KnowledgeBaseSettings } from '../knowledge-base-settings.ts';

export const KnowledgeBaseCreated = z.strictObject({
  knowledge_base_id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  settings: KnowledgeBaseSettings,
  created_at: z.iso.datetime(),
});

/** Carries the full new state of what changed, so a projection needs no merge logic. */
export const KnowledgeBaseUpdated = z.strictObject({
  knowledge_base_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  settings: KnowledgeBaseSettings,
  updated_at: z.iso.datetime(),
});

export const KnowledgeBaseDeleted = z.strictObject({ knowledge_base_id: z.string(), deleted_at: z.iso.datetime() });

export const knowledgeBaseEvents = { KnowledgeBaseCreated, KnowledgeBaseUpdated, KnowledgeBaseDeleted } as const;
